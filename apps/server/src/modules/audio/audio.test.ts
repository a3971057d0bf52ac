import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { TtsError, type TtsProvider } from '../../providers/tts/index.js';
import {
  createBot,
  createChat,
  createMessage,
  createPremium,
  createUser,
  deleteAccount,
} from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { hasAudio } from './audio.presenter.js';
import { estimateVoiceProgress, expectedVoiceMs } from './audio.service.js';
import { readMp3Info } from '../../providers/tts/mp3.js';

let t: TestApp;
let storage: MediaStorage;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-audio-'));
  storage = new LocalMediaStorage(mediaDir);
  // The default provider: espeak-ng in WebAssembly.
  t = await createTestApp({ storage });
});
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

/** A user (premium unless told otherwise) with a character's text message. */
async function botMessage(
  text: string,
  options: { premium?: boolean; app?: TestApp; overrides?: Partial<typeof messages.$inferInsert> } = {},
) {
  const app = options.app ?? t;
  const account = await createUser(app.app, app.database.db);
  if (options.premium !== false) await createPremium(app.database.db, account.user.id);
  const bot = await createBot(app.database.db);
  const chat = await createChat(app.database.db, { userId: account.user.id, botId: bot.id });
  const message = await createMessage(app.database.db, chat, { role: 'bot', text, ...options.overrides });
  return { ...account, bot, chat, message };
}

const ask = (id: string, auth: Record<string, string>, app = t, language = 'en') =>
  app.app.inject({ method: 'POST', url: `/api/audio/${id}`, headers: { ...auth, 'accept-language': language } });

/** Asks every 50 ms (the client asks every 1 s) until the state is no longer `processing`. */
async function pollUntilDone(id: string, auth: Record<string, string>, app = t, language = 'en') {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await ask(id, auth, app, language);
    if (response.statusCode !== 200 || response.json().state !== 'processing' || Date.now() > deadline) {
      return response;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function row(id: string, app = t) {
  const [message] = await app.database.db.select().from(messages).where(eq(messages.id, id));
  return message!;
}

/** Decodes the MP3 with mpg123 (WebAssembly): the number of samples and the duration in seconds. */
async function decode(data: Buffer) {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const decoded = decoder.decode(new Uint8Array(data));
    return {
      samples: decoded.samplesDecoded,
      sampleRate: decoded.sampleRate,
      durationS: decoded.samplesDecoded / decoded.sampleRate,
      errors: decoded.errors.length,
      peak: decoded.channelData[0]!.reduce((max, v) => Math.max(max, Math.abs(v)), 0),
    };
  } finally {
    decoder.free();
  }
}

const SENTENCES: [string, string][] = [
  ['en', 'I missed you today. Tell me about your evening.'],
  ['ch', '我今天很想你，跟我说说你的晚上吧。'],
  ['es', 'Hoy te eché de menos. Cuéntame cómo fue tu noche.'],
  ['de', 'Ich habe dich heute vermisst. Erzähl mir von deinem Abend.'],
  ['ru', 'Я сегодня скучала по тебе. Расскажи, как прошёл твой вечер.'],
];

describe('POST /api/audio/{message_id}', () => {
  for (const [language, sentence] of SENTENCES) {
    it(`speaks a sentence in ${language}: processing, then ready with a playable MP3`, async () => {
      const { message, auth } = await botMessage(sentence);
      const first = await ask(message.id, auth);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ state: 'processing', audio_url: null, progress: 0 });
      expect((await row(message.id)).audioState).toBe('processing');

      const done = await pollUntilDone(message.id, auth);
      expect(done.statusCode).toBe(200);
      const { state, audio_url } = done.json() as { state: string; audio_url: string };
      expect(state).toBe('ready');
      expect(audio_url).toMatch(/^\/api\/media\/chats\/[0-9a-f-]{36}\/voice-[0-9a-f]{32}\.mp3\?exp=\d+&sig=/);

      const file = await t.app.inject({ method: 'GET', url: audio_url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('audio/mpeg');
      const data = file.rawPayload;
      const frames = readMp3Info(data)!;
      expect(frames.sampleRate).toBe(22_050);
      const decoded = await decode(data);
      expect(decoded.errors).toBe(0);
      expect(decoded.sampleRate).toBe(22_050);
      // One spoken sentence: more than half a second, not silence, and both readings agree.
      expect(decoded.durationS).toBeGreaterThan(0.5);
      expect(decoded.durationS).toBeLessThan(20);
      expect(decoded.peak).toBeGreaterThan(0.05);
      expect(Math.abs(frames.durationS - decoded.durationS)).toBeLessThan(0.2);

      const stored = await row(message.id);
      expect(stored.audioState).toBe('ready');
      expect(hasAudio(stored)).toBe(true);
      // Asked again: the same file, no new job.
      const again = await ask(message.id, auth);
      expect(again.json().state).toBe('ready');
      await t.app.audio.idle();
      expect((await row(message.id)).audioKey).toBe(stored.audioKey);
    });
  }

  it("shows in the chat's history: has_audio once the voice is ready", async () => {
    const { message, chat, auth } = await botMessage('Sweet dreams, my love.');
    const history = async () => {
      const response = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
      expect(response.statusCode).toBe(200);
      return (response.json() as { results: { id: string; has_audio: boolean }[] }).results.find(
        (m) => m.id === message.id,
      )!;
    };
    expect((await history()).has_audio).toBe(false);
    await ask(message.id, auth);
    expect((await history()).has_audio).toBe(false); // processing
    expect((await pollUntilDone(message.id, auth)).json().state).toBe('ready');
    expect((await history()).has_audio).toBe(true);
  });

  it('answers 402 premium_required to a non-premium user and queues nothing', async () => {
    const { message, auth } = await botMessage('Hello there, darling.', { premium: false });
    const response = await ask(message.id, auth);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'premium_required' });
    const stored = await row(message.id);
    expect(stored.audioState).toBeNull();
    expect(hasAudio(stored)).toBe(false);
    expect(fs.existsSync(path.join(mediaDir, 'chats', stored.userId))).toBe(false);
  });

  it("answers 404 for another user's message, an unknown id and a malformed id", async () => {
    const { message } = await botMessage('Only for my user.');
    const stranger = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, stranger.user.id);
    const theirs = await ask(message.id, stranger.auth);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'not_found' });
    expect((await row(message.id)).audioState).toBeNull();
    expect((await ask('00000000-0000-4000-8000-000000000000', stranger.auth)).statusCode).toBe(404);
    expect((await ask('not-a-uuid', stranger.auth)).statusCode).toBe(404);
  });

  it('answers 401 without a token', async () => {
    const { message } = await botMessage('Hello.');
    expect((await t.app.inject({ method: 'POST', url: `/api/audio/${message.id}` })).statusCode).toBe(401);
  });

  it("answers 409 voice_unavailable for the user's own message, a picture and an unfinished reply", async () => {
    const { chat, auth } = await botMessage('Hi');
    const own = await createMessage(t.database.db, chat, { role: 'user', text: 'Hello you' });
    const picture = await createMessage(t.database.db, chat, { role: 'bot', kind: 2, mediaKey: 'bots/x/a.png' });
    const streaming = await createMessage(t.database.db, chat, { role: 'bot', text: 'Hel', state: 'streaming' });
    const emoji = await createMessage(t.database.db, chat, { role: 'bot', text: '😘💕' });
    for (const m of [own, picture, streaming, emoji]) {
      const response = await ask(m.id, auth);
      expect(response.statusCode, m.text).toBe(409);
      expect(response.json()).toMatchObject({ code: 'voice_unavailable' });
    }
  });

  it('serves the audio to its owner and the signed URL, never to another user', async () => {
    const { message, auth } = await botMessage('This one is just for you.');
    await ask(message.id, auth);
    const { audio_url } = (await pollUntilDone(message.id, auth)).json() as { audio_url: string };
    const unsigned = audio_url.split('?')[0]!;
    const stranger = await createUser(t.app, t.database.db);
    expect((await t.app.inject({ method: 'GET', url: unsigned, headers: stranger.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: unsigned })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: unsigned, headers: auth })).statusCode).toBe(200);
    // The signature is bound to this file: it opens no other.
    const other = await botMessage('And this one is for someone else.');
    await ask(other.message.id, other.auth);
    const otherUrl = ((await pollUntilDone(other.message.id, other.auth)).json() as { audio_url: string }).audio_url;
    const forged = `${otherUrl.split('?')[0]}?${audio_url.split('?')[1]}`;
    expect((await t.app.inject({ method: 'GET', url: forged, headers: stranger.auth })).statusCode).toBe(404);
  });

  it('deleting the account deletes its voice messages', async () => {
    const { message, auth, user } = await botMessage('Goodbye, my dear.');
    await ask(message.id, auth);
    await pollUntilDone(message.id, auth);
    const key = (await row(message.id)).audioKey!;
    expect(await storage.exists(key)).toBe(true);
    const response = await deleteAccount(t.app, t.database.db, user.id, auth);
    expect(response.statusCode).toBe(204);
    expect(await storage.exists(key)).toBe(false);
    expect(fs.existsSync(path.join(mediaDir, 'chats', user.id))).toBe(false);
  });
});

describe('voice jobs that fail', () => {
  let failing: TestApp;
  let calls = 0;
  const broken: TtsProvider = {
    name: 'broken',
    synthesise: async () => {
      calls += 1;
      throw new TtsError('provider_error', 'audio/speech answered 500', 'broken');
    },
  };

  beforeAll(async () => {
    failing = await createTestApp({ storage, tts: broken, database: t.database, env: { TTS_RETRIES: '0' } });
  });

  it('end in error, reported once; asking again retries', async () => {
    const { message, auth } = await botMessage('This will not work.', { app: failing });
    expect((await ask(message.id, auth, failing)).json().state).toBe('processing');
    const done = await pollUntilDone(message.id, auth, failing);
    expect(done.json()).toEqual({ state: 'error', audio_url: null });
    expect(calls).toBe(1);
    const stored = await row(message.id, failing);
    expect(stored.audioKey).toBeNull();
    expect(hasAudio(stored)).toBe(false);
    // The user presses play again: a new job.
    expect((await ask(message.id, auth, failing)).json().state).toBe('processing');
    await failing.app.audio.idle();
    expect(calls).toBe(2);
  });

  it('start one job for a message however many requests arrive at once', async () => {
    let started = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const counting = await createTestApp({
      storage,
      database: t.database,
      env: { TTS_RETRIES: '0' },
      tts: {
        name: 'counting',
        synthesise: async () => {
          started += 1;
          await gate; // still working while the requests arrive
          throw new TtsError('provider_error', 'no voice today', 'counting');
        },
      },
    });
    const { message, auth } = await botMessage('Everyone at once!', { app: counting });
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask(message.id, auth, counting)));
    expect(answers.map((a) => a.json().state)).toEqual(Array(10).fill('processing'));
    release();
    await counting.app.audio.idle();
    expect(started).toBe(1);
    expect((await row(message.id, counting)).audioState).toBe('error');
  });

  it('report an estimated progress while processing: 0 at first, growing with time, never 1', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = await createTestApp({
      storage,
      database: t.database,
      env: { TTS_RETRIES: '0' },
      tts: {
        name: 'slow',
        synthesise: async () => {
          await gate;
          throw new TtsError('provider_error', 'no voice today', 'slow');
        },
      },
    });
    const { message, auth } = await botMessage('A sentence that takes a while to say.', { app: slow });
    expect((await ask(message.id, auth, slow)).json()).toEqual({ state: 'processing', audio_url: null, progress: 0 });
    // Asked 2 s ago (the expected time for this text with a remote provider is ≈ 3 s).
    await slow.database.db
      .update(messages)
      .set({ updatedAt: new Date(Date.now() - 2000) })
      .where(eq(messages.id, message.id));
    const later = (await ask(message.id, auth, slow)).json();
    expect(later.state).toBe('processing');
    expect(later.progress).toBeGreaterThan(0.4);
    expect(later.progress).toBeLessThan(0.95);
    await slow.database.db
      .update(messages)
      .set({ updatedAt: new Date(Date.now() - 50_000) })
      .where(eq(messages.id, message.id));
    expect((await ask(message.id, auth, slow)).json().progress).toBe(0.95);
    release();
    await slow.app.audio.idle();
    expect(expectedVoiceMs('espeak', 100)).toBeLessThan(expectedVoiceMs('openai', 100));
    expect(estimateVoiceProgress(-5, 1000)).toBe(0);
  });

  it('end in error when the provider answers something that is not MP3', async () => {
    const garbage = await createTestApp({
      storage,
      database: t.database,
      env: { TTS_RETRIES: '0' },
      tts: { name: 'garbage', synthesise: async () => ({ format: 'mp3', data: Buffer.from('<html>oops</html>') }) },
    });
    const { message, auth } = await botMessage('Hello?', { app: garbage });
    await ask(message.id, auth, garbage);
    expect((await pollUntilDone(message.id, auth, garbage)).json().state).toBe('error');
  });

  it('end in error when the provider takes longer than TTS_TIMEOUT_S', async () => {
    let aborted = false;
    const slow = await createTestApp({
      storage,
      database: t.database,
      env: { TTS_TIMEOUT_S: '1', TTS_RETRIES: '0' },
      tts: {
        name: 'slow',
        synthesise: ({ signal }) =>
          new Promise((_, reject) =>
            signal!.addEventListener('abort', () => {
              aborted = true;
              reject(new TtsError('timeout', 'too slow', 'slow'));
            }),
          ),
      },
    });
    const { message, auth } = await botMessage('Are you there?', { app: slow });
    await ask(message.id, auth, slow);
    expect((await pollUntilDone(message.id, auth, slow)).json().state).toBe('error');
    expect(aborted).toBe(true);
  });

  it('retry with backoff, then end in error only when the retries are used up', async () => {
    const attempts: number[] = [];
    const flaky = await createTestApp({
      storage,
      database: t.database,
      env: { TTS_RETRIES: '2', TTS_RETRY_DELAY_S: '1' },
      tts: {
        name: 'flaky',
        synthesise: async () => {
          attempts.push(Date.now());
          throw new TtsError('provider_error', 'try later', 'flaky');
        },
      },
    });
    const { message, auth } = await botMessage('Third time lucky?', { app: flaky });
    await ask(message.id, auth, flaky);
    // While retries are left the message stays `processing`.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await row(message.id, flaky)).audioState).toBe('processing');
    await flaky.app.audio.idle();
    expect(attempts).toHaveLength(3);
    // Backoff with jitter: the first retry waits 1–2 s (PostgreSQL's `now()` rounds), the second 2–4 s.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1900);
    expect((await ask(message.id, auth, flaky)).json()).toEqual({ state: 'error', audio_url: null });
  }, 30_000);

  it('a job left by a stopped app is finished by the next one (nothing lost on a restart)', async () => {
    const jobsSchema = 'pgboss_restart';
    let started = () => {};
    const taken = new Promise<void>((resolve) => (started = resolve));
    const stopping = await createTestApp({
      storage,
      database: t.database,
      jobsSchema,
      env: { TTS_RETRY_DELAY_S: '1' },
      tts: {
        name: 'hanging',
        synthesise: ({ signal }) => {
          started();
          return new Promise((_, reject) => signal!.addEventListener('abort', () => reject(signal!.reason)));
        },
      },
    });
    const { message, auth } = await botMessage('Interrupted.', { app: stopping });
    expect((await ask(message.id, auth, stopping)).json().state).toBe('processing');
    await taken;
    await stopping.app.close();
    expect((await row(message.id)).audioState).toBe('processing');
    const next = await createTestApp({ storage, database: t.database, jobsSchema });
    await next.app.audio.idle();
    const stored = await row(message.id);
    expect(stored.audioState).toBe('ready');
    expect((await ask(message.id, auth, next)).json().state).toBe('ready');
  }, 30_000);
});
