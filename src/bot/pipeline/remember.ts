// Stage 5, remember the buttons: a reply whose buttons need state stores one row for all of them, and its buttons carry
// that row's token. Only a reply actually sent stores state, so this is the last stage of every path that has buttons.
import type { Reply } from '../../views/model.js';
import type { ButtonStateStore } from '../types.js';
import type { Draft } from './stages.js';

export async function remember(state: ButtonStateStore, draft: Draft): Promise<Reply> {
  const token = draft.row ? await state.save(draft.row.kind, draft.row.payload) : '';
  return draft.layout(token);
}
