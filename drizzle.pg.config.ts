// drizzle-kit for Postgres: `npm run db:generate:pg -- --name <what>` writes a reviewed SQL migration into
// migrations/postgres/. A change to the tables is generated for both dialects (SQLite: drizzle.config.ts).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/pg/schema.ts',
  out: './migrations/postgres',
});
