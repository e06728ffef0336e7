// Each repository's contract (./*.contract.ts), run against both databases: the same calls give the same results on
// SQLite and on Postgres. One database per test, new and empty (./databases.ts).
import { describe } from 'vitest';
import { alertsContract } from './alerts.contract.js';
import { postgres, sqlite } from './databases.js';
import { digestsContract } from './digests.contract.js';
import { leasesContract } from './leases.contract.js';
import { outboxContract } from './outbox.contract.js';
import { apiUsageContract, buttonStateContract, installationsContract, locationCacheContract, teamsContract } from './small-repos.contract.js';

for (const db of [sqlite, postgres]) {
  describe(db.name, () => {
    outboxContract(db.open);
    leasesContract(db.open);
    alertsContract(db.open);
    digestsContract(db.open);
    buttonStateContract(db.open);
    locationCacheContract(db.open);
    apiUsageContract(db.open);
    teamsContract(db.open);
    installationsContract(db.open);
  });
}
