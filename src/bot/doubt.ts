// A command refused with a question, privately: "Did you mean 80,000?" (one button, Yes) or "To rent or to buy?" (a
// button per reading). The searches are stored in one row behind the buttons, and each runs as a command would (its
// area looked up then).
import type { Block, Button } from '../views/model.js';
import { PAYLOAD_VERSION, type AskRow, type RunRow } from './button-payloads.js';
import type { Doubt } from './requests.js';
import type { ButtonStateStore, Surface } from './types.js';

export async function doubtReply(
  { text, options }: Doubt,
  surface: Surface,
  state: ButtonStateStore,
): Promise<{ text: string; blocks: Block[] }> {
  const picked = options[0]!.search.chosen;
  const chosen = picked ? { chosen: { ...(picked.id !== undefined ? { id: picked.id } : {}), name: picked.name } } : {};
  let buttons: Button[];
  if (options.length === 1) {
    const row = await state.save('run', {
      v: PAYLOAD_VERSION,
      query: options[0]!.search.query,
      surface,
      ...chosen,
    } satisfies RunRow);
    buttons = [{ label: options[0]!.label, action: 'choose', token: `${row}.y`, style: 'primary' }];
  } else {
    const row = await state.save('ask', {
      v: PAYLOAD_VERSION,
      queries: options.map((o) => o.search.query),
      surface,
      ...chosen,
    } satisfies AskRow);
    buttons = options.map((o, i) => ({ label: o.label, action: 'choose', token: `${row}.q${i}` }));
  }
  return {
    text,
    blocks: [
      { kind: 'text', text },
      { kind: 'actions', buttons },
    ],
  };
}
