// Refused forms kept for their Try again (issue 41): what a person typed in a form the core then refused (a duplicate,
// a limit, a place it could not find) is kept a while, so the form opens again as they left it rather than empty.
// In memory: a restart loses only the shortcut, never an order (nothing was saved).
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export class KeptForms<T extends object> {
  private readonly kept = new LRUCache<string, { user: string; form: T }>({ max: 1_000, ttl: 30 * 60_000 });

  /** Keeps `form` for `user`: the id its Try again carries. */
  put(user: string, form: T): string {
    const id = randomBytes(9).toString('base64url');
    this.kept.set(id, { user, form });
    return id;
  }

  /** The form `user` typed: another person's, or one kept too long, is none. */
  get(id: string, user: string): T | undefined {
    const f = this.kept.get(id);
    return f && f.user === user ? f.form : undefined;
  }
}
