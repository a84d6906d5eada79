import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import type { TDb } from '../db/client';
import { databaseFacts } from './manifest';

// Opens a copied PGlite directory in a process of its own (a PGlite start is seconds of WASM on
// the thread that runs it: in the server it would stall every request), replays its WAL, and prints
// what it holds as JSON. Never migrates: the archive keeps the schema it was taken at.
const dir = process.argv[2];
if (!dir) throw new Error('usage: inspect-cli <pglite data directory>');
const client = await PGlite.create(dir, { extensions: { pg_trgm, btree_gin } });
try {
  const facts = await databaseFacts(drizzle({ client }) as unknown as TDb);
  process.stdout.write(JSON.stringify(facts));
} finally {
  await client.close();
}
