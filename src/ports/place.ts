// The shape of a chat place, `<platform>:<workspace>:<conversation>` (`slack:T1:C1`, `discord:G:C`), read in one place:
// the team whose share a call spends, and the conversation a button works in. A place of another shape
// (`console:local`) is its own team and its own conversation.

const parts = (place: string) => place.split(':');

/** `slack:T123`: the platform and the workspace (or server). */
export function teamOf(place: string): string {
  const p = parts(place);
  return p.length >= 3 ? `${p[0]}:${p[1]}` : place;
}

/** `slack:C123`: the platform and the conversation (Slack and Discord channel ids are unique on their platform). */
export function scopeOf(place: string): string {
  const p = parts(place);
  return p.length >= 3 ? `${p[0]}:${p.at(-1)}` : place;
}
