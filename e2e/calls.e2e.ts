import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type WebSocket as PageSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavFile } from '../apps/server/src/lib/pcm';
import { startFakeOpenAi, type FakeOpenAi } from '../apps/server/test/fake-openai';
import { CHROMIUM_ARGS, chromiumPath } from './harness';
import { startPgApp, type PgApp } from './support/pg-app';

/**
 * The call journey (issue 14): a premium member opens a chat, presses the phone button, the
 * call connects, Chromium's fake microphone plays an espeak-ng WAV (made here; the file
 * loops, so the user speaks again and again), the server hears it (a fake OpenAI-compatible
 * transcription server), the character answers (a fake model) in speech (espeak-ng), audio
 * frames arrive, captions show, the user hangs up and the chat holds the call's transcript.
 *
 * Needs the server side of calls (the token route, the WebSocket and the pipeline).
 */

const SAID = 'What is your favourite song?';
const REPLY = 'I love old jazz songs. Shall I hum one for you?';

/**
 * The server's settings for calls with an OpenAI-compatible speech recogniser. The names
 * follow LLM_* and TTS_*; the integrator aligns them with apps/server/src/config.ts.
 */
const callEnv = (sttUrl: string): Record<string, string> => ({
  STT_PROVIDER: 'openai',
  STT_BASE_URL: sttUrl,
  STT_MODEL: 'fake-whisper',
  TTS_PROVIDER: 'espeak',
  CALL_MINUTES_PER_DAY: '30',
});

/**
 * The user's words, spoken by espeak-ng (22 050 Hz), then 6 s of silence: the turn ends, and
 * the reply (≈ 3 s) has played before the looping file speaks again (which would barge in).
 */
async function spokenWav(text: string): Promise<string> {
  // The package ships no types (the server loads it from plain JavaScript too).
  const espeakPackage = '@echogarden/espeak-ng-emscripten';
  const { default: createModule } = (await import(espeakPackage)) as {
    default: () => Promise<{
      eSpeakNGWorker: new () => {
        set_voice(voice: string): number;
        synthesize(text: string, callback: (samples: Int16Array | null) => boolean): void;
      };
    }>;
  };
  const module = await createModule();
  const engine = new module.eSpeakNGWorker();
  engine.set_voice('en-us');
  const chunks: Int16Array[] = [];
  engine.synthesize(text, (samples) => {
    if (samples?.length) chunks.push(Int16Array.from(samples));
    return false;
  });
  const rate = 22_050;
  const silence = new Int16Array(Math.round(rate * 6));
  const total = chunks.reduce((n, c) => n + c.length, 0) + silence.length;
  const all = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-call-')), 'said.wav');
  fs.writeFileSync(file, wavFile(all, rate));
  return file;
}

/** A fake OpenAI-compatible `/v1/audio/transcriptions`: every utterance is SAID. */
async function startFakeStt(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url?.endsWith('/audio/transcriptions')) {
        state.requests++;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ text: SAID }));
        return;
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let app: PgApp;
let model: FakeOpenAi;
let stt: Awaited<ReturnType<typeof startFakeStt>>;
let browser: Browser;
let slug = '';

beforeAll(async () => {
  const microphone = await spokenWav(SAID);
  model = await startFakeOpenAi({ behaviour: { mode: 'ok', text: REPLY } });
  stt = await startFakeStt();
  app = await startPgApp({
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'fake-model',
    SEED_ON_START: 'false',
    ...callEnv(stt.url),
  });
  const [bot] = await app.sql`
    insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, voice)
    values ('nova-call-e2e', 'Nova', 27, 'A radio host with a warm voice.', 'Hey {{user}}! Call me any time.',
            ${['realistic']}, 'public', 'approved', true, 'en-us+f3')
    returning slug`;
  slug = bot!.slug;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: 60_000,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${microphone}`,
      '--autoplay-policy=no-user-gesture-required',
      // The reply's WebRTC loopback inside the page (docs/calls.md "Echo") also connects on a
      // machine whose only network interface is the loopback one.
      '--allow-loopback-in-peer-connection',
    ],
  });
}, 240_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  await app?.stop();
  await model?.close();
  await stt?.close();
});

describe('call journey', () => {
  it('premium: phone button → connected → mic frames up → reply audio down → captions → hang up → transcript in the chat', async () => {
    const userId = await app.createUser({ name: 'Caller', premium: true });
    const context = await app.signedInContext(browser, userId, { width: 390, height: 844 });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();

    // The call's socket, watched from outside the page.
    const wire = { up: 0, upSizes: new Set<number>(), down: 0, events: [] as { type: string }[] };
    page.on('websocket', (socket: PageSocket) => {
      if (!socket.url().includes('/api/audio_chat/ws')) return;
      socket.on('framesent', ({ payload }) => {
        if (typeof payload === 'string') return;
        wire.up++;
        wire.upSizes.add(payload.length);
      });
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string') wire.events.push(JSON.parse(payload) as { type: string });
        else wire.down++;
      });
    });

    await page.goto(`${app.baseUrl}/${slug}`);
    await expect.poll(() => page.getByTestId('chat-title').innerText()).toContain('Nova');
    await expect.poll(() => page.url()).toContain('chat=');
    const chatId = new URL(page.url()).searchParams.get('chat')!;

    await page.getByTestId('chat-call').click();
    await expect.poll(() => page.url()).toContain(`/audio?chat=${chatId}`);
    const screen = page.getByTestId('call-screen');
    await expect.poll(() => screen.getAttribute('data-phase'), { timeout: 30_000 }).toBe('live');
    expect(await page.getByTestId('call-name').innerText()).toBe('Nova');
    // The reply plays through the WebRTC loopback (docs/calls.md "Echo"), not straight out.
    expect(await screen.getAttribute('data-playback')).toBe('loopback');
    expect(wire.events[0]).toMatchObject({ type: 'ready', version: 1 });

    // Microphone frames go up: 20 ms of 16 kHz PCM16 = 640 bytes each.
    await expect.poll(() => wire.up, { timeout: 15_000 }).toBeGreaterThan(25);
    expect([...wire.upSizes]).toEqual([640]);

    // The server heard the user and the character answers aloud: captions of both, audio frames down.
    const captions = page.getByTestId('call-captions');
    await expect.poll(() => captions.innerText().catch(() => ''), { timeout: 45_000 }).toContain(SAID);
    await expect.poll(() => wire.events.some((e) => e.type === 'audio_start'), { timeout: 45_000 }).toBe(true);
    await expect.poll(() => wire.down, { timeout: 45_000 }).toBeGreaterThan(3);
    await expect.poll(() => captions.innerText(), { timeout: 45_000 }).toContain('I love old jazz songs.');
    expect(stt.requests).toBeGreaterThan(0);
    // The server's turn went through speaking.
    expect(wire.events.some((e) => e.type === 'state' && (e as { state?: string }).state === 'speaking')).toBe(true);

    // The reply is heard to its end (its audio all sent, the call listening again) before the
    // hang-up: a hang-up while she speaks keeps only what was heard (docs/calls.md "Barge-in").
    await expect
      .poll(
        () => {
          const end = wire.events.findIndex((e) => e.type === 'audio_end');
          return (
            end >= 0 &&
            wire.events.slice(end).some((e) => e.type === 'state' && (e as { state?: string }).state !== 'speaking')
          );
        },
        { timeout: 45_000 },
      )
      .toBe(true);
    await page.getByTestId('call-hangup').click();
    await expect.poll(() => page.url(), { timeout: 15_000 }).toContain(`/${slug}?chat=${chatId}`);
    expect(wire.events.at(-1)).toMatchObject({ type: 'end', reason: 'hangup' });

    // The call is the chat: the user's words and the reply are messages, marked as spoken.
    await expect
      .poll(() => page.getByTestId('message-user').allInnerTexts(), { timeout: 20_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining(SAID)]));
    await expect
      .poll(() => page.getByTestId('message-text').allInnerTexts())
      .toEqual(expect.arrayContaining([expect.stringContaining('I love old jazz songs.')]));
    expect(await page.getByTestId('message-spoken').count()).toBeGreaterThan(1);
    await context.close();
  });

  it('a free member gets the premium offer, never an empty page', async () => {
    const userId = await app.createUser({ name: 'Free Caller' });
    const context = await app.signedInContext(browser, userId, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/audio?slug=${slug}`);
    // Opened by its address: without a tap on the page yet (navigator.userActivation), the call
    // waits for one, as audio needs it; else it starts at once.
    const start = page.getByTestId('call-start');
    const problem = page.getByTestId('call-problem');
    await expect.poll(async () => (await start.count()) + (await problem.count()), { timeout: 20_000 }).toBe(1);
    if (await start.count()) await start.click();
    await expect.poll(() => problem.getAttribute('data-failure'), { timeout: 20_000 }).toBe('premium_required');
    await expect.poll(() => page.url()).toContain('premium=1');
    await page.getByTestId('premium-modal').waitFor();
    await context.close();
  });
});
