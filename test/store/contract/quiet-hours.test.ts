// Quiet hours and alert schedules in the store (quiet-hours.contract.js), on SQLite and on Postgres: the same calls
// give the same results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { quietHoursContract } from './quiet-hours.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => quietHoursContract(db.open));
