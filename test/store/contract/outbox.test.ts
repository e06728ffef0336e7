// The outbox repository's contract (outbox.contract.js), on SQLite and on Postgres: the same calls give the same
// results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { outboxContract } from './outbox.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => outboxContract(db.open));
