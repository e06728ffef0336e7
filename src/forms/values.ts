// What every form shares: a submission read into a command, or refused field by field; an area as the area pickers
// offer it. Pure.

/** A form read: the command it saves, or a message for each field that is wrong (nothing is saved then). */
export type FormResult<C, F extends string> =
  { ok: true; order: C } | { ok: false; errors: Partial<Record<F, string>> };

/** `<id>:<name>`, as the area pickers offer an area (suggestLocations), or undefined. */
export function decodeArea(value: string | undefined): { id: number; name: string } | undefined {
  const m = /^(\d+):(.+)$/s.exec(value?.trim() ?? '');
  return m ? { id: Number(m[1]), name: m[2]!.trim() } : undefined;
}
