// Secrets at rest: AES-256-GCM with MANZIL_ENCRYPTION_KEY (node:crypto). A sealed value names the key that sealed it,
// so keys can be rotated: the new key seals, the previous ones (MANZIL_ENCRYPTION_KEY_PREVIOUS) still open what they
// sealed until `manzil rotate-key` has sealed everything again with the new one.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** A 32-byte key, given as 64 hex digits or as base64 (44 characters). */
export function parseKey(text: string): Buffer | undefined {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/]{43}=?$/.test(t)
      ? Buffer.from(t, 'base64')
      : undefined;
  return key?.length === 32 ? key : undefined;
}

export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export class Sealer {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  /** `current` seals and opens; `previous` only open (rotation). */
  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    this.keyId = keyIdOf(current);
    for (const k of [current, ...previous]) this.keys.set(keyIdOf(k), k);
  }

  seal(plain: string): { sealed: string; keyId: string } {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [
      VERSION,
      this.keyId,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ];
    return { sealed: parts.join('.'), keyId: this.keyId };
  }

  /** The plain text; throws when no key it knows sealed it, or the value was tampered with. */
  open(sealed: string): string {
    const [version, keyId, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !keyId || iv === undefined || tag === undefined || body === undefined)
      throw new Error('sealed value: unknown format');
    const key = this.keys.get(keyId);
    if (!key)
      throw new Error(
        `sealed value: sealed with key ${keyId}, which is not MANZIL_ENCRYPTION_KEY or one of MANZIL_ENCRYPTION_KEY_PREVIOUS`,
      );
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** The sealer of MANZIL_ENCRYPTION_KEY and MANZIL_ENCRYPTION_KEY_PREVIOUS (checked already by the configuration). */
export function sealerFrom(keys: { key: string; previous: readonly string[] }): Sealer {
  const parse = (text: string) => {
    const key = parseKey(text);
    if (!key) throw new Error('an encryption key is not 32 bytes (64 hex digits or base64)');
    return key;
  };
  return new Sealer(parse(keys.key), keys.previous.map(parse));
}
