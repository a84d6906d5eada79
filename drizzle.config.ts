import { defineConfig } from 'drizzle-kit';

// Generation only needs the schema files; it never opens the server's database.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
  casing: 'snake_case',
});
