import { createTemplates } from './templates';

/**
 * Runs once per suite, before any test file: migrates one template database that every file's
 * fresh database is copied from (PGlite: a data directory tarball; PostgreSQL: CREATE DATABASE …
 * TEMPLATE), the one DATABASE_URL chooses, for the integration and browser suites alike.
 */
export default function setup(): Promise<() => Promise<void>> {
  return createTemplates();
}
