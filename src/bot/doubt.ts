// A command refused with a question, privately: "Did you mean 80,000?" (one button, Yes) or "To rent or to buy?" (a
// button per reading). The searches are stored in one row behind the buttons, and each runs as a command would (its
// area looked up then).
import type { Button } from '../views/model.js';
import { PAYLOAD_VERSION, type AskRow, type RunRow } from './button-payloads.js';
import type { Draft } from './pipeline/stages.js';
import type { Doubt } from './requests.js';
import type { Surface } from './types.js';

export function doubtDraft({ text, options }: Doubt, surface: Surface): Draft {
  const picked = options[0]!.search.chosen;
  const chosen = picked ? { chosen: { ...(picked.id !== undefined ? { id: picked.id } : {}), name: picked.name } } : {};
  const one = options.length === 1;
  const payload = one
    ? ({ v: PAYLOAD_VERSION, query: options[0]!.search.query, surface, ...chosen } satisfies RunRow)
    : ({ v: PAYLOAD_VERSION, queries: options.map((o) => o.search.query), surface, ...chosen } satisfies AskRow);
  const buttons = (row: string): Button[] =>
    one
      ? [{ label: options[0]!.label, action: 'choose', token: `${row}.y`, style: 'primary' }]
      : options.map((o, i) => ({ label: o.label, action: 'choose', token: `${row}.q${i}` }));
  return {
    row: { kind: one ? 'run' : 'ask', payload },
    layout: (row) => ({
      text,
      blocks: [
        { kind: 'text', text },
        { kind: 'actions', buttons: buttons(row) },
      ],
      ephemeral: true,
    }),
  };
}
