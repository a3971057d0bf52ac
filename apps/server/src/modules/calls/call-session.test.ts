import { describe, expect, it } from 'vitest';
import type { CallServerMessage, Message, StreamEvent } from '@reverie/shared';
import { SttError, type SttProvider, type TranscriptionRequest } from '../../providers/stt/index.js';
import type { SpeechRequest, TtsProvider } from '../../providers/tts/index.js';
import { EnergyVad } from '../../../test/call-audio.js';
import { EventQueue } from '../chats/index.js';
import { CallSession, type CallReplies } from './call-session.js';

/**
 * The call's state machine with test doubles for recognition, speech and the chat engine:
 * "speech" is a loud square wave, silence is zeros (the energy VAD tells them apart).
 */
const RATE = 16_000;
const loud = (ms: number) => {
  const out = new Int16Array((RATE * ms) / 1000);
  for (let i = 0; i < out.length; i++) out[i] = i % 40 < 20 ? 3000 : -3000;
  return out;
};
const quiet = (ms: number) => new Int16Array((RATE * ms) / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class FakeStt implements SttProvider {
  readonly name = 'fake';
  texts: string[] = [];
  requests: TranscriptionRequest[] = [];
  delayMs = 0;
  status() {
    return { state: 'ready' as const };
  }
  async availability() {
    return { ok: true as const };
  }
  async prepare() {}
  async transcribe(request: TranscriptionRequest) {
    this.requests.push(request);
    if (this.delayMs) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, this.delayMs);
        request.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new SttError('aborted', 'aborted', this.name));
        });
      });
    }
    return { text: this.texts.shift() ?? '' };
  }
}

/** 40 ms of sound per character at 24 kHz. */
class FakeTts implements TtsProvider {
  readonly name = 'fake';
  requests: SpeechRequest[] = [];
  async synthesise(request: SpeechRequest) {
    this.requests.push(request);
    return { format: 'pcm16' as const, sampleRate: 24_000, samples: new Int16Array(request.text.length * 960) };
  }
}

const message = (over: Partial<Message>): Message => ({
  id: 'm',
  chat_id: 'c',
  client_id: null,
  role: 'bot',
  kind: 1,
  text: '',
  img_url: null,
  has_audio: false,
  state: 'done',
  created_at: new Date().toISOString(),
  reply_to: null,
  alt_index: 0,
  alt_count: 1,
  error_code: null,
  notice: null,
  spoken: true,
  edited_at: null,
  proactive: false,
  ...over,
});

/** The chat engine's double: the reply streams word by word; `stop` ends it `stopped`. */
class FakeReplies implements CallReplies {
  reply = 'Hello there. How are you today? I am fine.';
  sent: { text: string; spoken?: boolean }[] = [];
  cuts: { messageId: string; text: string }[] = [];
  stops = 0;
  private stopped = false;
  async send(_u: string, _c: string, body: { text: string }, _l: string, options: { spoken?: boolean }) {
    this.sent.push({ text: body.text, spoken: options.spoken });
    const id = `reply-${this.sent.length}`;
    this.stopped = false;
    const queue = new EventQueue([
      { event: 'user_message', data: message({ id: `user-${this.sent.length}`, role: 'user', text: body.text }) },
      { event: 'bot_message', data: message({ id, state: 'streaming' }) },
    ] satisfies StreamEvent[]);
    void (async () => {
      let text = '';
      for (const word of this.reply.split(/(?<= )/)) {
        if (this.stopped) break;
        await sleep(5);
        text += word;
        queue.push({ event: 'delta', data: { message_id: id, text: word } });
      }
      queue.push({ event: 'bot_message', data: message({ id, text, state: this.stopped ? 'stopped' : 'done' }) });
      queue.end();
    })();
    return queue;
  }
  async stop() {
    this.stops += 1;
    this.stopped = true;
  }
  async cutSpokenReply(_u: string, _c: string, messageId: string, text: string) {
    this.cuts.push({ messageId, text });
    return true;
  }
}

function session(over: { stt?: FakeStt; replies?: FakeReplies; endOfTurnMs?: number } = {}) {
  const out: CallServerMessage[] = [];
  const audio: number[] = [];
  const stt = over.stt ?? new FakeStt();
  const tts = new FakeTts();
  const replies = over.replies ?? new FakeReplies();
  const s = new CallSession({
    userId: 'u',
    chatId: 'c',
    locale: 'en',
    voice: 'en-us+f3',
    stt,
    tts,
    vad: new EnergyVad(),
    replies,
    output: { json: (m) => out.push(m), audio: (pcm) => audio.push(pcm.length) },
    endOfTurnMs: over.endOfTurnMs ?? 200,
    minSpeechMs: 100,
    outputSampleRate: 24_000,
    leadMs: 100,
    flushWaitMs: 100,
    ttsTimeoutMs: 5000,
    log: { warn: () => undefined },
  });
  const feed = (samples: Int16Array) => {
    for (let at = 0; at < samples.length; at += 320) s.audio(samples.subarray(at, at + 320));
  };
  const states = () => out.filter((m) => m.type === 'state').map((m) => (m as { state: string }).state);
  const until = async (what: string, check: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out: ${what}`);
      await sleep(10);
    }
  };
  return { s, out, audio, stt, tts, replies, feed, states, until };
}

describe('CallSession', () => {
  it('goes listening → user_speaking → thinking → speaking → listening, saying the reply sentence by sentence', async () => {
    const t = session();
    t.stt.texts = ['Hi!'];
    t.feed(loud(400));
    expect(t.s.currentState).toBe('user_speaking');
    t.feed(quiet(300));
    await t.until('audio_end', () => t.out.some((m) => m.type === 'audio_end'));
    await t.until('listening', () => t.s.currentState === 'listening');
    expect(t.states()).toEqual(['user_speaking', 'thinking', 'speaking', 'listening']);
    expect(t.replies.sent).toEqual([{ text: 'Hi!', spoken: true }]);
    // Recognition got the utterance at 16 kHz in the user's language.
    expect(t.stt.requests[0]).toMatchObject({ sampleRate: 16_000, language: 'en' });
    // Each sentence synthesised as PCM with the character's voice.
    expect(t.tts.requests.map((r) => r.text)).toEqual(['Hello there.', 'How are you today?', 'I am fine.']);
    expect(t.tts.requests[0]).toMatchObject({ voice: 'en-us+f3', language: 'en', format: 'pcm16' });
    const captions = t.out.filter((m) => m.type === 'caption');
    expect(captions[0]).toMatchObject({ role: 'user', text: 'Hi!', message_id: 'user-1' });
    expect(captions.slice(1).map((m) => (m as { text: string }).text)).toEqual([
      'Hello there.',
      'How are you today?',
      'I am fine.',
    ]);
    // 20 ms frames at 24 kHz.
    expect(Math.max(...t.audio)).toBe(960);
    expect(t.replies.cuts).toEqual([]);
  });

  it('nothing recognised: back to listening, nothing sent', async () => {
    const t = session();
    t.stt.texts = [''];
    t.feed(loud(400));
    t.feed(quiet(300));
    await t.until('listening', () => t.s.currentState === 'listening');
    expect(t.replies.sent).toEqual([]);
    expect(t.states()).toEqual(['user_speaking', 'thinking', 'listening']);
  });

  it('barge-in while speaking: interrupt, the reply stopped and cut to what was played, then the next turn', async () => {
    const t = session();
    t.replies.reply = 'One two three four five six seven eight. Nine ten eleven twelve.';
    t.stt.texts = ['Go on', 'Stop'];
    t.feed(loud(400));
    t.feed(quiet(300));
    await t.until('speaking', () => t.s.currentState === 'speaking');
    await sleep(400);
    const start = t.out.find((m) => m.type === 'audio_start') as { turn_id: string };
    t.feed(loud(150));
    const interrupt = t.out.find((m) => m.type === 'interrupt');
    expect(interrupt).toMatchObject({ type: 'interrupt', turn_id: start.turn_id });
    expect(t.s.currentState).toBe('user_speaking');
    // The client played 500 ms of the turn: 12.5 characters of 40 ms in the first sentence.
    t.s.control({ type: 'flushed', turn_id: start.turn_id, played_ms: 500 });
    t.feed(quiet(300));
    await t.until('the cut', () => t.replies.cuts.length > 0);
    expect(t.replies.stops).toBeGreaterThan(0);
    expect(t.replies.cuts[0]).toEqual({ messageId: 'reply-1', text: 'One two' });
    await t.until('the second turn', () => t.replies.sent.length === 2);
    expect(t.replies.sent[1]).toEqual({ text: 'Stop', spoken: true });
  });

  it('speech during recognition: the first utterance is heard again with the second', async () => {
    const t = session();
    t.stt.delayMs = 300;
    t.stt.texts = ['Both parts'];
    t.feed(loud(400));
    t.feed(quiet(300));
    await t.until('recognising', () => t.stt.requests.length === 1);
    t.feed(loud(400));
    t.feed(quiet(300));
    await t.until('the second recognition', () => t.stt.requests.length === 2);
    // The first recognition was aborted; the second request holds both utterances.
    expect(t.stt.requests[0]!.signal?.aborted).toBe(true);
    expect(t.stt.requests[1]!.pcm.length).toBeGreaterThan(t.stt.requests[0]!.pcm.length + RATE * 0.35);
    await t.until('sent', () => t.replies.sent.length === 1);
    expect(t.replies.sent[0]!.text).toBe('Both parts');
    expect(t.out.some((m) => m.type === 'interrupt')).toBe(false);
  });

  it('a noise shorter than the minimum speech does not interrupt', async () => {
    const t = session();
    t.replies.reply = 'A fairly long sentence to be said by the character now.';
    t.stt.texts = ['Hi'];
    t.feed(loud(400));
    t.feed(quiet(300));
    await t.until('speaking', () => t.s.currentState === 'speaking');
    t.feed(loud(60));
    t.feed(quiet(400));
    await t.until('audio_end', () => t.out.some((m) => m.type === 'audio_end'));
    expect(t.out.some((m) => m.type === 'interrupt')).toBe(false);
    expect(t.replies.cuts).toEqual([]);
  });

  it('push-to-talk: talk down interrupts at once, release ends the turn', async () => {
    const t = session();
    t.stt.texts = ['Pressed'];
    t.s.control({ type: 'ptt', mode: true });
    t.feed(loud(400));
    t.feed(quiet(400));
    expect(t.states()).toEqual([]);
    t.s.control({ type: 'talk', down: true });
    expect(t.s.currentState).toBe('user_speaking');
    t.feed(loud(200));
    t.s.control({ type: 'talk', down: false });
    await t.until('sent', () => t.replies.sent.length === 1);
    expect(t.replies.sent[0]!.text).toBe('Pressed');
  });

  it('closing mid-reply stops the turn and cuts the reply to what was played', async () => {
    const t = session();
    t.replies.reply = 'One two three four five six seven eight nine ten eleven twelve thirteen.';
    t.stt.texts = ['Talk'];
    t.feed(loud(400));
    t.feed(quiet(300));
    await t.until('speaking', () => t.s.currentState === 'speaking');
    await t.s.close();
    expect(t.replies.cuts).toHaveLength(1);
    const heard = t.replies.cuts[0]!.text;
    expect(t.replies.reply.startsWith(heard)).toBe(true);
    expect(heard.length).toBeLessThan(t.replies.reply.length);
    expect(t.out.some((m) => m.type === 'interrupt')).toBe(false);
  });

  it('recognises early while the end-of-turn silence runs, and uses it when the turn ends with the same audio', async () => {
    const t = session({ endOfTurnMs: 600 });
    t.stt.texts = ['Early'];
    t.feed(loud(400));
    t.feed(quiet(360));
    // Recognition already asked, the turn not over yet.
    expect(t.stt.requests).toHaveLength(1);
    expect(t.s.currentState).toBe('user_speaking');
    t.feed(quiet(300));
    await t.until('sent', () => t.replies.sent.length === 1);
    expect(t.replies.sent[0]!.text).toBe('Early');
    // No second recognition: the early one heard exactly the turn's audio.
    expect(t.stt.requests).toHaveLength(1);
    expect(t.stt.requests[0]!.signal?.aborted).toBe(false);
  });

  it('drops the early recognition when the user speaks again, and recognises the whole turn', async () => {
    const t = session({ endOfTurnMs: 600 });
    t.stt.delayMs = 50;
    t.stt.texts = ['The whole turn'];
    t.feed(loud(400));
    t.feed(quiet(360));
    expect(t.stt.requests).toHaveLength(1);
    t.feed(loud(300));
    expect(t.stt.requests[0]!.signal?.aborted).toBe(true);
    t.feed(quiet(700));
    await t.until('sent', () => t.replies.sent.length === 1);
    // A second early recognition, of the whole turn this time, is the one used.
    expect(t.stt.requests).toHaveLength(2);
    expect(t.stt.requests[1]!.signal?.aborted).toBe(false);
    expect(t.stt.requests[1]!.pcm.length).toBeGreaterThan(t.stt.requests[0]!.pcm.length + RATE * 0.25);
    expect(t.replies.sent[0]!.text).toBe('The whole turn');
  });
});
