// The digests repository's contract (digests.contract.js), on SQLite and on Postgres: the same calls give the same
// results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { digestsContract } from './digests.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => digestsContract(db.open));
