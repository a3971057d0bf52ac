import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMessageTime } from '../../../lib/message-time';
import { countIntlMade, restoreIntl } from '../../../test/intl';
import { beginNavigation } from '../../../lib/early-answers';
import { forgetEarlyAnswers, startChatOpening, takeEarlyChat, takeEarlyHistory } from './opening';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('a chat opened early (the route loader)', () => {
  let asked: string[] = [];
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    asked = [];
    window.sessionStorage.clear();
    globalThis.fetch = async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
      asked.push(url.pathname + url.search);
      return url.pathname.startsWith('/api/chat/history/')
        ? json({ results: [], next_param: null, prev_param: null })
        : json({ id: 'c1' });
    };
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    forgetEarlyAnswers();
    restoreIntl();
  });

  it("makes the message times' formatters while the requests are on the network", async () => {
    const dates = countIntlMade('DateTimeFormat');
    startChatOpening('c0');
    await waitFor(() => expect(dates.made).toBe(3));
    // The chat's render then makes none.
    formatMessageTime(new Date().toISOString(), 'en');
    formatMessageTime('2020-01-02T03:04:05.000Z', 'en');
    expect(dates.made).toBe(3);
  });

  it('asks for the chat and its opening page at once; each answer is taken once', async () => {
    startChatOpening('c1');
    await expect(takeEarlyChat('c1')).resolves.toMatchObject({ id: 'c1' });
    expect(takeEarlyChat('c1')).toBeNull();
    await expect(takeEarlyHistory('c1', { kind: 'latest' })).resolves.toMatchObject({ results: [] });
    expect(takeEarlyHistory('c1', { kind: 'latest' })).toBeNull();
    expect(asked.map((path) => path.split('?')[0]).sort()).toEqual(['/api/chat/c1', '/api/chat/history/c1']);
  });

  it('keeps the page of the place the reader left apart from the newest page', async () => {
    window.sessionStorage.setItem(
      'reverie.chat-place.c2',
      JSON.stringify({ id: 'm1', at: '2026-01-02T03:04:05.000Z' }),
    );
    startChatOpening('c2');
    expect(takeEarlyHistory('c2', { kind: 'latest' })).toBeNull();
    const page = takeEarlyHistory('c2', {
      kind: 'date',
      at: '2026-01-02T03:04:05.000Z',
      focusId: 'm1',
      focusOffset: 0,
    });
    expect(page).not.toBeNull();
    await page;
    expect(asked.find((path) => path.startsWith('/api/chat/history/c2'))).toContain('at=');
  });

  it('starts nothing the page has asked for already (it rendered before the loader came to it)', async () => {
    expect(takeEarlyHistory('c4', { kind: 'latest' })).toBeNull();
    startChatOpening('c4');
    // The chat itself was not asked for yet: that one goes out, and nothing else.
    await waitFor(() => expect(asked.filter((path) => path.startsWith('/api/chat/c4'))).toHaveLength(1));
    expect(takeEarlyChat('c4')).not.toBeNull();
    expect(takeEarlyHistory('c4', { kind: 'latest' })).toBeNull();
    expect(asked.filter((path) => path.startsWith('/api/chat/history/c4'))).toEqual([]);
  });

  it('drops what a navigation started and nobody took: coming back to the chat later never gets that old page', () => {
    startChatOpening('c5');
    // The user goes on (sends, edits, opens another chat), then comes back to this one.
    beginNavigation();
    expect(takeEarlyHistory('c5', { kind: 'latest' })).toBeNull();
    expect(takeEarlyChat('c5')).toBeNull();
  });

  it('has nothing for a chat not opened early', () => {
    expect(takeEarlyChat('c3')).toBeNull();
  });
});
