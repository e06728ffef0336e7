// What a Postgres repository runs its statements on: the pool's database, or a transaction it is part of.
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { NodePgDatabase, NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgTransaction } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

export type PgDb = NodePgDatabase<typeof schema>;
export type PgTx = PgTransaction<NodePgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Either: a helper that takes part in its caller's transaction takes this. */
export type PgRunner = PgDb | PgTx;
