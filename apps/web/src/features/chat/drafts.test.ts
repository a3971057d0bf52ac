import { describe, expect, it } from 'vitest';
import { characterDraftKey, chatDraftKey, dropChatDraft, openDraft, readDraft, writeDraft } from './drafts';

describe('drafts: one per chat', () => {
  it('keys a chat by its id and a character without a chat by its slug', () => {
    expect(chatDraftKey('3f2a')).toBe('chat-draft:3f2a');
    expect(characterDraftKey('aiko')).toBe('chat-draft:aiko');
    writeDraft(chatDraftKey('c1'), 'one');
    writeDraft(chatDraftKey('c2'), 'two');
    expect(readDraft(chatDraftKey('c1'))).toBe('one');
    expect(readDraft(chatDraftKey('c2'))).toBe('two');
    writeDraft(chatDraftKey('c1'), '');
    expect(window.sessionStorage.getItem('chat-draft:c1')).toBeNull();
  });

  it("moves the character's draft to the first chat opened without one, once", () => {
    window.sessionStorage.setItem('chat-draft:aiko', 'Typed as a guest');
    expect(openDraft(chatDraftKey('c1'), characterDraftKey('aiko'))).toBe('Typed as a guest');
    expect(window.sessionStorage.getItem('chat-draft:c1')).toBe('Typed as a guest');
    expect(window.sessionStorage.getItem('chat-draft:aiko')).toBeNull();
    // Another chat of the character does not get it again.
    expect(openDraft(chatDraftKey('c2'), characterDraftKey('aiko'))).toBe('');
    expect(openDraft(chatDraftKey('c1'), characterDraftKey('aiko'))).toBe('Typed as a guest');
  });

  it("a chat's own draft wins; the character's waits for a chat without one", () => {
    window.sessionStorage.setItem('chat-draft:c1', 'Mine');
    window.sessionStorage.setItem('chat-draft:aiko', 'Older');
    expect(openDraft(chatDraftKey('c1'), characterDraftKey('aiko'))).toBe('Mine');
    expect(window.sessionStorage.getItem('chat-draft:aiko')).toBe('Older');
    expect(openDraft(chatDraftKey('c2'), characterDraftKey('aiko'))).toBe('Older');
  });

  it('deleting a chat drops its draft only', () => {
    writeDraft(chatDraftKey('c1'), 'one');
    writeDraft(chatDraftKey('c2'), 'two');
    dropChatDraft('c1');
    expect(readDraft(chatDraftKey('c1'))).toBe('');
    expect(readDraft(chatDraftKey('c2'))).toBe('two');
  });
});
