// OPS_TOKEN, as `Authorization: Bearer <token>` on the operator's endpoints. The token is never logged or echoed.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the request's Authorization header carries `token`. Both sides are hashed first, so the comparison takes the
 * same time whatever the length or the first wrong character of what was sent.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
  return timingSafeEqual(digest(sent ?? ''), digest(token)) && sent !== undefined;
}
