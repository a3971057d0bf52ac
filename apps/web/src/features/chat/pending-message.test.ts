import { describe, expect, it } from 'vitest';
import { characterDraftKey, chatDraftKey } from './drafts';
import { keepPendingMessage, peekPendingMessage, PENDING_MESSAGE_TTL_MS, takePendingMessage } from './pending-message';

describe("a guest's message kept across the sign-up", () => {
  it('is kept per character in sessionStorage and taken once', () => {
    keepPendingMessage('aiko', '  Hello there  ');
    expect(peekPendingMessage('luna')).toBeNull();
    const kept = peekPendingMessage('aiko');
    expect(kept).toMatchObject({ text: 'Hello there' });
    expect(kept!.clientId).toMatch(/^[0-9a-f-]{20,}$/);
    // A reload reads it again from this tab's storage.
    expect(JSON.parse(window.sessionStorage.getItem('chat-pending:aiko')!)).toMatchObject({ text: 'Hello there' });
    expect(takePendingMessage('aiko')).toEqual(kept);
    expect(takePendingMessage('aiko')).toBeNull();
  });

  it('the newest message replaces an older one; an empty one is not kept', () => {
    keepPendingMessage('aiko', 'first');
    keepPendingMessage('aiko', 'second');
    keepPendingMessage('aiko', '   ');
    expect(takePendingMessage('aiko')?.text).toBe('second');
  });

  it('takes the draft with it when the draft is that message', () => {
    window.sessionStorage.setItem(characterDraftKey('aiko'), 'Hello ');
    keepPendingMessage('aiko', 'Hello');
    takePendingMessage('aiko');
    expect(window.sessionStorage.getItem(characterDraftKey('aiko'))).toBeNull();
    window.sessionStorage.setItem(characterDraftKey('aiko'), 'another text');
    keepPendingMessage('aiko', 'Hello');
    takePendingMessage('aiko');
    expect(window.sessionStorage.getItem(characterDraftKey('aiko'))).toBe('another text');
  });

  it("takes the open chat's draft too when the character's draft has moved there", () => {
    window.sessionStorage.setItem(chatDraftKey('c1'), 'Hello');
    window.sessionStorage.setItem(chatDraftKey('c2'), 'Hello');
    keepPendingMessage('aiko', 'Hello');
    takePendingMessage('aiko', 'c1');
    expect(window.sessionStorage.getItem(chatDraftKey('c1'))).toBeNull();
    expect(window.sessionStorage.getItem(chatDraftKey('c2'))).toBe('Hello');
  });

  it('drops a message kept too long ago and anything malformed', () => {
    keepPendingMessage('aiko', 'old', Date.now() - PENDING_MESSAGE_TTL_MS - 1000);
    expect(takePendingMessage('aiko')).toBeNull();
    window.sessionStorage.setItem('chat-pending:aiko', '{not json');
    expect(takePendingMessage('aiko')).toBeNull();
    expect(window.sessionStorage.getItem('chat-pending:aiko')).toBeNull();
    window.sessionStorage.setItem('chat-pending:aiko', JSON.stringify({ text: 1, clientId: 'x', at: Date.now() }));
    expect(takePendingMessage('aiko')).toBeNull();
  });
});
