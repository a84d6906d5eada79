import type { TestProject } from 'vitest/node';
import { createTemplates } from './templates';

/**
 * Runs once per suite, before any test file: migrates one template database that every file's
 * fresh database is copied from (PGlite: a data directory tarball; PostgreSQL: CREATE DATABASE …
 * TEMPLATE). The browser suite always runs on PGlite data directories.
 */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return createTemplates({ postgres: project.name !== 'e2e' });
}
