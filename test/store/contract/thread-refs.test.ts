// Where a first card landed and a batch's own deliveries (thread-refs.contract.js), on SQLite and on Postgres: the
// same calls give the same results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { threadRefsContract } from './thread-refs.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => threadRefsContract(db.open));
