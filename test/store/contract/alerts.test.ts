// The alerts repository's contract (alerts.contract.js), on SQLite and on Postgres: the same calls give the same
// results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { alertsContract } from './alerts.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => alertsContract(db.open));
