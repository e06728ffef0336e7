// The small repositories' contracts (small-repos.contract.ts), on SQLite and on Postgres: the same calls give the same
// results.
import { describe } from 'vitest';
import { postgres, sqlite } from './databases.js';
import {
  apiUsageContract,
  buttonStateContract,
  installationsContract,
  locationCacheContract,
  teamsContract,
} from './small-repos.contract.js';

for (const db of [sqlite, postgres]) {
  describe(db.name, () => {
    buttonStateContract(db.open);
    locationCacheContract(db.open);
    apiUsageContract(db.open);
    teamsContract(db.open);
    installationsContract(db.open);
  });
}
