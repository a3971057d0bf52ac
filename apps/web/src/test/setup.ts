import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Tests never reach a network: any request a test does not stub answers 404.
beforeEach(() => {
  globalThis.fetch = async () =>
    new Response(JSON.stringify({ detail: 'Not found', code: 'not_found' }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
