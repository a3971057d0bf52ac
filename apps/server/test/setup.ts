import { afterAll } from 'vitest';
import { runCleanups } from './cleanups.js';

// Runs at the start of every test file: what test/helpers.ts makes for the file is closed after
// its last test.
afterAll(runCleanups);
