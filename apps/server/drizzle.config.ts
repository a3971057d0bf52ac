import { defineConfig } from 'drizzle-kit';

// Migrations are generated from src/db/schema.ts with `npm run db:generate` and applied by
// the server on start (src/db/migrate.ts), on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
