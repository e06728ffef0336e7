// drizzle-kit: `npm run db:generate -- --name <what>` writes a reviewed SQL migration into migrations/sqlite/
// (Postgres: drizzle.pg.config.ts, `npm run db:generate:pg`).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/schema.ts',
  out: './migrations/sqlite',
});
