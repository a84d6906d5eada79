// Shared by the UI tests: jest-dom matchers, and unmounting between tests (vitest globals are off,
// so testing-library cannot register its own cleanup).
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
