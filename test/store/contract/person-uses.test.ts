// The person uses' contract (person-uses.contract.ts), on SQLite and on Postgres: the same calls give the same results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { personUsesContract } from './person-uses.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => personUsesContract(db.open));
