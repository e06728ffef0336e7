// Add to Slack's store: installations sealed with MANZIL_ENCRYPTION_KEY (AES-256-GCM), key rotation, and the hold a
// removed workspace puts on its channels. A real SQLite file.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOutboxRepo,
  createSlackInstallationRepo,
  openStore,
  REMOVED_REASON,
  Sealer,
  sealerFrom,
  type Store,
} from '../../src/store/index.js';
import { resealInstallations, slackInstallations } from '../../src/slack-installations.js';

const opened: Store[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});
const open = () => {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'manzil-install-')), 'm.db'));
  opened.push(store);
  return store;
};
const key = () => randomBytes(32);
const INSTALLATION = {
  team: { id: 'T1', name: 'One' },
  bot: { token: 'xoxb-T1-secret', userId: 'U0BOT', scopes: ['chat:write'] },
  isEnterpriseInstall: false,
};

describe('sealing', () => {
  it('opens what it sealed, and refuses a value tampered with or sealed with a key it does not have', () => {
    const sealer = new Sealer(key());
    const { sealed } = sealer.seal('xoxb-secret');
    expect(sealed).not.toContain('xoxb-secret');
    expect(sealer.open(sealed)).toBe('xoxb-secret');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('xoxb-forged').toString('base64url');
    expect(() => sealer.open(parts.join('.'))).toThrow();
    const other = key();
    expect(() => new Sealer(other).open(sealed)).toThrow(
      /sealed with key [0-9a-f]{8}, which is not MANZIL_ENCRYPTION_KEY/,
    );
  });

  it('takes a key as 64 hex digits or base64, and nothing shorter', () => {
    const k = key();
    expect(sealerFrom({ key: k.toString('hex'), previous: [] }).keyId).toBe(
      sealerFrom({ key: k.toString('base64'), previous: [] }).keyId,
    );
    expect(() => sealerFrom({ key: 'too-short', previous: [] })).toThrow(/32 bytes/);
  });
});

describe('installations', () => {
  it('are kept sealed, read back whole, replaced by a new install and deleted by a removal', async () => {
    const store = open();
    const repo = createSlackInstallationRepo(store, new Sealer(key()));
    expect(await repo.save({ teamId: 'T1' }, INSTALLATION)).toBe(true);
    expect(
      await repo.save({ teamId: 'T1' }, { ...INSTALLATION, bot: { ...INSTALLATION.bot, token: 'xoxb-T1-new' } }),
    ).toBe(false);
    expect(await repo.fetch({ teamId: 'T1' })).toMatchObject({ bot: { token: 'xoxb-T1-new' } });
    expect(JSON.stringify(store.sqlite.prepare('select * from slack_installation').all())).not.toContain('xoxb-T1');
    expect(await repo.fetch({ teamId: 'T2' })).toBeUndefined();
    expect(await repo.delete({ teamId: 'T1' })).toBe(true);
    expect(await repo.fetch({ teamId: 'T1' })).toBeUndefined();
  });

  it('rotate: with the new key current and the old one previous, a start seals everything again; then the old key can go', async () => {
    const store = open();
    const [oldKey, newKey] = [key(), key()];
    await createSlackInstallationRepo(store, new Sealer(oldKey)).save({ teamId: 'T1' }, INSTALLATION);
    await expect(createSlackInstallationRepo(store, new Sealer(newKey)).fetch({ teamId: 'T1' })).rejects.toThrow(
      /not MANZIL_ENCRYPTION_KEY/,
    );
    const said: unknown[] = [];
    const both = createSlackInstallationRepo(store, new Sealer(newKey, [oldKey]));
    expect(await resealInstallations(both, { info: (...a: unknown[]) => void said.push(a) })).toBe(1);
    expect(said).toHaveLength(1);
    expect(await slackInstallations(both).fetch({ teamId: 'T1' })).toMatchObject({ bot: { token: 'xoxb-T1-secret' } });
    const alone = createSlackInstallationRepo(store, new Sealer(newKey));
    expect(await alone.list()).toEqual([expect.objectContaining({ teamId: 'T1', keyId: new Sealer(newKey).keyId })]);
    expect(await alone.fetch({ teamId: 'T1' })).toMatchObject({ bot: { token: 'xoxb-T1-secret' } });
  });
});

describe('a removed workspace', () => {
  it('holds every channel of that workspace with its alerts, digests or queued messages, and no other; adding the app again releases only those', async () => {
    const store = open();
    const outbox = createOutboxRepo(store);
    for (const channel of ['slack:T1:C1', 'slack:T1:C2', 'slack:T2:C1']) {
      await outbox.enqueue({ channel, kind: 'new', dedupeKey: `${channel}:x`, payload: '{}' });
    }
    // A channel of T1 that cannot receive for its own reason stays held after the app comes back.
    await outbox.holdChannel('slack:T1:C9', 'channel_not_found', Date.now(), Date.now() + 60_000);
    const installations = createSlackInstallationRepo(store, new Sealer(key()));
    expect(await installations.holdWorkspace('slack:T1:')).toBe(2);
    expect((await outbox.heldChannel('slack:T1:C1'))?.reason).toBe(REMOVED_REASON);
    expect(await outbox.heldChannel('slack:T2:C1')).toBeUndefined();
    expect(await installations.releaseWorkspace('slack:T1:')).toBe(2);
    expect(await outbox.heldChannel('slack:T1:C1')).toBeUndefined();
    expect((await outbox.heldChannel('slack:T1:C9'))?.reason).toBe('channel_not_found');
  });
});
