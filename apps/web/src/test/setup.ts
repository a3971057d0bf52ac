import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type * as ReactVirtuoso from 'react-virtuoso';

// A lazy route or modal loads its chunk (and its texts) on first use. On a loaded CI machine
// that first import can take longer than Testing Library's default 1 s wait, so `findBy*` and
// `waitFor` wait up to 5 s: a passing test still resolves as soon as its element is there,
// and only a test that would fail anyway waits longer. (`vi.waitFor` has no such setting: its
// calls pass `{ timeout: 5000 }`.)
configure({ asyncUtilTimeout: 5000 });

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

// happy-dom lays nothing out, so a virtualised list would measure a viewport of 0 px and
// render no row: tests get react-virtuoso's own mock sizes (a tall viewport, 40 px rows), so
// every list shows its rows while its real logic (ranges, first index, follow) still runs.
vi.mock('react-virtuoso', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactVirtuoso>();
  const { createElement, forwardRef, useContext } = await import('react');
  const Virtuoso = forwardRef(function MockSizedVirtuoso(props: object, ref) {
    // A test that sets its own sizes keeps them.
    if (useContext(actual.VirtuosoMockContext)) return createElement(actual.Virtuoso, { ...props, ref } as never);
    return createElement(
      actual.VirtuosoMockContext.Provider,
      { value: { viewportHeight: 20_000, itemHeight: 40 } },
      createElement(actual.Virtuoso, { ...props, ref } as never),
    );
  });
  return { ...actual, Virtuoso };
});
