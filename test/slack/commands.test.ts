import { describe, expect, it } from 'vitest';
import { commandText, unescapeSlack } from '../../adapters/slack/commands.js';
import { escapeSlack } from '../fakes/slack-sign.js';

describe('command text as Slack sends it', () => {
  it('reads &amp; &lt; &gt; back as what the person typed', () => {
    expect(commandText('/buy', escapeSlack('marina < 2m'))).toBe('/buy marina < 2m');
    expect(commandText('/manzil', escapeSlack('broker "Bed & Home" > 5 agents'))).toBe(
      '/manzil broker "Bed & Home" > 5 agents',
    );
  });

  it('undoes the escaping exactly once, so typed entities survive', () => {
    for (const typed of ['&lt; literally', '&amp;amp;', 'a &gt;& b', '&&lt;<'])
      expect(unescapeSlack(escapeSlack(typed))).toBe(typed);
  });
});
