import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TDatabase } from '../db/client';
import { createTestDatabase } from '../test/database';
import { IdpKeys } from './keys';

let database: TDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

it('makes the first key while callers already wait to sign with it and to publish it', async () => {
  const keys = new IdpKeys(database.db);
  const loading = keys.load();
  // Asked before the key exists (the server listens while a first start makes it).
  const [signing, published] = await Promise.all([keys.signingKey(), keys.jwks()]);
  expect(published.keys.map((k) => k.kid)).toEqual([signing.kid]);
  expect(await keys.verifyKey(signing.kid)).toBeDefined();
  await loading;
  // Another instance finds the key there rather than making its own.
  const other = new IdpKeys(database.db);
  other.load();
  expect((await other.signingKey()).kid).toBe(signing.kid);
});
