// drizzle-kit: `npm run db:generate -- --name <what>` writes a reviewed SQL migration into migrations/.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/schema.ts',
  out: './migrations',
});
