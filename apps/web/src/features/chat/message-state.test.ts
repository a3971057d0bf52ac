import { describe, expect, it } from 'vitest';
import type { Message } from '@reverie/shared';
import {
  emptyMessageList,
  lastBotMessage,
  listMessages,
  messageListReducer as reduce,
  streamingMessage,
  type MessageListAction,
  type MessageListState,
} from './message-state';
import { message } from './test-helpers';

/** A message whose text is its id, so the assertions read the order at a glance. */
const msg = (id: string, changes: Partial<Message> = {}): Message => message(id, { text: id, ...changes });

const run = (actions: MessageListAction[], from: MessageListState = emptyMessageList) => actions.reduce(reduce, from);
const ids = (state: MessageListState) => listMessages(state).map((m) => m.id);

describe('message list reducer', () => {
  it('appends new messages and replaces a known one by id in place', () => {
    const state = run([
      { type: 'upsert', message: msg('a') },
      { type: 'upsert', message: msg('b', { state: 'streaming', text: '' }) },
      { type: 'upsert', message: msg('c', { role: 'system' }) },
      { type: 'upsert', message: msg('b', { state: 'done', text: 'final' }) },
    ]);
    expect(ids(state)).toEqual(['a', 'b', 'c']);
    expect(state.byId.b).toMatchObject({ state: 'done', text: 'final' });
  });

  it('replaces the local copy of a sent message by its client id', () => {
    const state = run([
      { type: 'upsert', message: msg('g') },
      { type: 'upsert', message: msg('local-1', { role: 'user', client_id: 'k1', state: 'streaming' }) },
      { type: 'upsert', message: msg('u1', { role: 'user', client_id: 'k1', text: 'hi' }) },
    ]);
    expect(ids(state)).toEqual(['g', 'u1']);
    expect(state.byId['local-1']).toBeUndefined();
  });

  it('shows a new alternative of a reply in the place of the old one', () => {
    const state = run([
      { type: 'upsert', message: msg('u1', { role: 'user' }) },
      { type: 'upsert', message: msg('b1', { reply_to: 'u1', alt_count: 1 }) },
      { type: 'upsert', message: msg('u2', { role: 'user' }) },
      { type: 'upsert', message: msg('b2', { reply_to: 'u2' }) },
      { type: 'upsert', message: msg('b1-alt', { reply_to: 'u1', alt_index: 1, alt_count: 2 }) },
    ]);
    expect(ids(state)).toEqual(['u1', 'b1-alt', 'u2', 'b2']);
    expect(state.byId.b1).toBeUndefined();
  });

  it('replaces a shown reply (by id or as its alternative) and adds nothing it does not show', () => {
    const shown = run([
      { type: 'upsert', message: msg('u1', { role: 'user' }) },
      { type: 'upsert', message: msg('b1', { reply_to: 'u1', state: 'failed' }) },
      { type: 'upsert', message: msg('u2', { role: 'user' }) },
    ]);
    const state = run(
      [
        { type: 'replace', message: msg('b1', { reply_to: 'u1', text: 'again' }) },
        { type: 'replace', message: msg('b9', { reply_to: 'u9' }) },
      ],
      shown,
    );
    expect(ids(state)).toEqual(['u1', 'b1', 'u2']);
    expect(state.byId.b1!.text).toBe('again');
    const alt = run([{ type: 'replace', message: msg('b1-alt', { reply_to: 'u1', alt_index: 1 }) }], state);
    expect(ids(alt)).toEqual(['u1', 'b1-alt', 'u2']);
  });

  it('appends deltas to the streaming text and ignores unknown ids', () => {
    const state = run([
      { type: 'upsert', message: msg('b', { state: 'streaming', text: '' }) },
      { type: 'delta', messageId: 'b', text: 'Hel' },
      { type: 'delta', messageId: 'b', text: 'lo' },
      { type: 'delta', messageId: 'zz', text: '!' },
    ]);
    expect(state.byId.b?.text).toBe('Hello');
    expect(streamingMessage(state)?.id).toBe('b');
    expect(ids(state)).toEqual(['b']);
  });

  it('prepends older pages (newest first) above, without duplicates', () => {
    const newest = [msg('m6'), msg('m5'), msg('m4')];
    const older = [msg('m4', { text: 'stale copy' }), msg('m3'), msg('m2')];
    const oldest = [msg('m2'), msg('m1')];
    let state = run([{ type: 'prepend', messages: newest }]);
    state = run([{ type: 'upsert', message: msg('m7', { state: 'streaming' }) }], state);
    state = run(
      [
        { type: 'prepend', messages: older },
        { type: 'prepend', messages: oldest },
        { type: 'prepend', messages: oldest },
      ],
      state,
    );
    expect(ids(state)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    expect(state.byId.m4?.text).toBe('m4');
  });

  it('does not bring back an alternative that is shown already under another id', () => {
    let state = run([
      { type: 'prepend', messages: [msg('b1-alt', { reply_to: 'u1', alt_index: 1 }), msg('u1', { role: 'user' })] },
    ]);
    state = run([{ type: 'prepend', messages: [msg('b1', { reply_to: 'u1' }), msg('u0', { role: 'user' })] }], state);
    expect(ids(state)).toEqual(['u0', 'u1', 'b1-alt']);
  });

  it('patches and removes by id; finds the last bot reply', () => {
    let state = run([
      { type: 'upsert', message: msg('b1') },
      { type: 'upsert', message: msg('u1', { role: 'user' }) },
      { type: 'upsert', message: msg('b2', { state: 'streaming' }) },
      { type: 'patch', messageId: 'b2', changes: { state: 'failed', error_code: 'network' } },
    ]);
    expect(state.byId.b2).toMatchObject({ state: 'failed', error_code: 'network' });
    expect(streamingMessage(state)).toBeNull();
    expect(lastBotMessage(state)?.id).toBe('b2');
    state = run([{ type: 'remove', messageId: 'b2' }], state);
    expect(lastBotMessage(state)?.id).toBe('b1');
    expect(run([{ type: 'reset' }], state)).toEqual(emptyMessageList);
  });
});
