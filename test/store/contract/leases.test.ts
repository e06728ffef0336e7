// The leases repository's contract (leases.contract.js), on SQLite and on Postgres: the same calls give the same
// results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import { leasesContract } from './leases.contract.js';

for (const db of [sqlite, postgres]) describe(db.name, () => leasesContract(db.open));
