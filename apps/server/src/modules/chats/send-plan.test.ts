import { MessageKind } from '@reverie/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { fairUseRefusal, planSend, screenMessage, type SendInput } from './send-plan.js';
import { crisisReply, disclosureText, refusalText } from './safety.js';

/** The planning step of a send, without a database (docs/chat.md "How a send is planned"). */
const now = new Date('2026-03-01T12:00:00Z');
const input = (overrides: Partial<SendInput> = {}): SendInput => ({
  text: 'Hello there',
  clientId: '00000000-0000-4000-8000-00000000000c',
  chatId: '00000000-0000-4000-8000-0000000000c1',
  userId: '00000000-0000-4000-8000-0000000000a1',
  locale: 'en',
  spoken: false,
  now,
  userMessageId: '00000000-0000-4000-8000-0000000000e1',
  // Disclosed a minute ago, active a minute ago: no notice due.
  chat: { disclosedAt: new Date(now.getTime() - 60_000), updatedAt: new Date(now.getTime() - 60_000) },
  characterName: 'Mira',
  owner: { instanceId: 'replica-a', leaseMs: 15_000 },
  ...overrides,
});
const noPictures = () => false;
const plan = (text: string, overrides: Partial<SendInput> = {}, isPicture = noPictures) =>
  planSend(screenMessage(text, isPicture), input({ text, ...overrides }));
const CRISIS = "I'm feeling suicidal tonight";
const MINORS = 'sexy underage girl';

describe('screenMessage', () => {
  it('a plain message is answered by the model', () => {
    expect(screenMessage('Hi!', noPictures)).toEqual({
      refused: false,
      crisis: false,
      picture: false,
      wantsReply: true,
    });
  });

  it('the minors guard comes before the crisis protocol, which comes before a picture', () => {
    const always = () => true;
    expect(screenMessage(MINORS, always)).toMatchObject({
      refused: true,
      crisis: false,
      picture: false,
      wantsReply: false,
    });
    expect(screenMessage(CRISIS, always)).toMatchObject({
      refused: false,
      crisis: true,
      picture: false,
      wantsReply: false,
    });
    expect(screenMessage('send me a selfie', always)).toMatchObject({ picture: true, wantsReply: false });
  });
});

describe('planSend', () => {
  it('a message the model answers: the user message, then the empty live reply owned by this replica', () => {
    const p = plan('Hello there');
    expect(p.answer).toBe('model');
    expect(p.writesLiveReply).toBe(true);
    expect(p.safetyEvent).toBeNull();
    expect(p.chatValues).toEqual({});
    expect(p.rows).toEqual([
      {
        chatId: input().chatId,
        userId: input().userId,
        kind: MessageKind.Text,
        state: 'done',
        id: input().userMessageId,
        clientId: input().clientId,
        role: 'user',
        text: 'Hello there',
      },
      {
        chatId: input().chatId,
        userId: input().userId,
        kind: MessageKind.Text,
        role: 'bot',
        state: 'streaming',
        text: '',
        replyTo: input().userMessageId,
        owner: 'replica-a',
        leaseMs: 15_000,
      },
    ]);
    // The prompt's last turn before the row exists: its seq is not known yet.
    expect(p.asked).toEqual({
      id: input().userMessageId,
      seq: Number.MAX_SAFE_INTEGER,
      role: 'user',
      text: 'Hello there',
      tokens: 3,
    });
  });

  it('the minors guard: the text is not kept, a refusal notice, no reply, the event recorded', () => {
    const p = plan(MINORS);
    expect(p.answer).toBe('none');
    expect(p.writesLiveReply).toBe(false);
    expect(p.safetyEvent).toBe('minors_input');
    expect(p.rows.map((r) => [r.role, r.text, r.state, r.errorCode ?? null, r.notice ?? null])).toEqual([
      ['user', '', 'failed', 'refused', null],
      ['system', refusalText('en'), 'done', null, 'refusal'],
    ]);
    expect(p.rows[0]!.clientId).toBe(input().clientId);
  });

  it('the crisis protocol: the fixed reply as a notice, no model reply', () => {
    const p = plan(CRISIS, { locale: 'de' });
    expect(p.answer).toBe('none');
    expect(p.safetyEvent).toBe('crisis');
    expect(p.rows.map((r) => [r.role, r.notice ?? null, r.text])).toEqual([
      ['user', null, CRISIS],
      ['system', 'crisis', crisisReply('de')],
    ]);
  });

  it('a picture request writes the user message only; the words instead are a live reply to it', () => {
    const p = plan('send me a selfie', {}, () => true);
    expect(p.answer).toBe('picture');
    expect(p.writesLiveReply).toBe(false);
    expect(p.rows.map((r) => r.role)).toEqual(['user']);
    expect(p.wordsInstead).toMatchObject({ role: 'bot', state: 'streaming', replyTo: input().userMessageId });
  });

  it('the AI disclosure is due after three hours away: its notice follows the message, the chat records it', () => {
    const long = new Date(now.getTime() - 4 * 3_600_000);
    const p = plan('Back again', { chat: { disclosedAt: long, updatedAt: long } });
    expect(p.chatValues).toEqual({ disclosedAt: now });
    expect(p.rows.map((r) => [r.role, r.notice ?? null])).toEqual([
      ['user', null],
      ['system', 'ai_disclosure'],
      ['bot', null],
    ]);
    expect(p.rows[1]!.text).toBe(disclosureText('en', 'Mira'));
    // A refused message shows no disclosure.
    expect(plan(MINORS, { chat: { disclosedAt: long, updatedAt: long } }).chatValues).toEqual({});
  });

  it('a message said in a call: every row it writes is spoken', () => {
    const long = new Date(now.getTime() - 4 * 3_600_000);
    const p = plan('Hello', { spoken: true, chat: { disclosedAt: long, updatedAt: long } });
    expect(p.rows.map((r) => r.spoken)).toEqual([true, true, true]);
    expect(p.wordsInstead.spoken).toBe(true);
    expect(plan('Hello').rows.every((r) => !('spoken' in r))).toBe(true);
  });
});

describe('fairUseRefusal', () => {
  it('nothing to wait: no refusal; else a 429 with retry-after', () => {
    expect(fairUseRefusal(0)).toBeNull();
    const refusal = fairUseRefusal(12);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'rate_limited', statusCode: 429, headers: { 'retry-after': '12' } });
  });
});
