// Voice calls (issue 14, docs/calls.md): the server's own pipeline, measured from a client on a
// real WebSocket. The server runs in its own process (bench/support/calls-server.ts, the
// TypeScript sources through tsx, PGlite, Silero VAD) against a fake
// OpenAI-compatible server in this process (apps/server/test/fake-openai.ts: transcriptions,
// chat completions, speech). The microphone is espeak-ng speech made here, sent in 20 ms frames.
//
//  1. Pipeline overhead, instant fakes: from the last frame of speech sent to the first reply
//     audio byte received, minus the end-of-turn silence (CALL_END_OF_TURN_MS); the speech is
//     sent 4× faster than real time, the silence after it in real time (what the turn detector
//     waits for). Also the server's own figure (end of turn detected → first frame sent).
//  2. Interruption: while the character speaks, the user speaks (real time); from the first
//     frame of that speech to `interrupt` received, minus CALL_MIN_SPEECH_MS (speech shorter
//     than that is noise by design).
//  3. Voice to voice with realistic fakes (STT 150 ms, first token 300 ms, speech's first byte
//     100 ms): the last frame of speech → the first reply byte (end-of-turn silence included),
//     and per stage (the server's timings): recognition, first token, first sentence, first
//     synthesis, first frame.
//  4. Load: BENCH_CALLS_CONCURRENT (20) calls at once, each speaking in real time and hearing
//     the reply, for BENCH_DURATION_S (20 s): the server process's CPU (utime+stime from
//     /proc/<pid>/stat) per call-minute, the calls one core carries at that rate (60 s ÷ CPU s per
//     call-minute, at 70 % load), and the pacing under that load (p99 of the gaps between reply
//     frames beyond their 20 ms).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverSources } from '../support/server-sources.mjs';
import { median, percentile } from '../support/stats.mjs';

export const name = 'calls';
export const description = 'voice calls: pipeline overhead, interruption, voice-to-voice, CPU per call-minute';
export const order = 75;

const TURNS = Number(process.env.BENCH_CALLS_TURNS ?? 12);
const CONCURRENT = Number(process.env.BENCH_CALLS_CONCURRENT ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const END_OF_TURN_MS = 600;
const MIN_SPEECH_MS = 250;
const CLK_TCK = 100;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time (µs) of a process so far. */
function cpuMicros(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

/** Drops the quiet end of a clip (frames under the VAD's threshold): its last frame is speech. */
function trimTail(samples) {
  let end = samples.length;
  while (end > 480) {
    let sum = 0;
    for (let i = end - 480; i < end; i++) sum += samples[i] * samples[i];
    if (Math.sqrt(sum / 480) >= 400) break;
    end -= 480;
  }
  return samples.slice(0, end);
}

async function startCallServer(repoRoot, fakeUrl, users) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-bench-calls-'));
  const env = {
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fakeUrl,
    LLM_MODEL: 'fake-model',
    STT_PROVIDER: 'openai',
    STT_BASE_URL: fakeUrl,
    TTS_PROVIDER: 'openai',
    TTS_BASE_URL: fakeUrl,
    CHAT_MESSAGES_PER_MINUTE: '100000',
    RATE_LIMIT_PER_MINUTE: '100000',
    TRUST_PROXY: 'true',
    SEED_ON_START: 'false',
    CALL_END_OF_TURN_MS: String(END_OF_TURN_MS),
    CALL_MIN_SPEECH_MS: String(MIN_SPEECH_MS),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-012345',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/calls-server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_ENV: JSON.stringify(env), BENCH_USERS: String(users) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const timings = [];
  const ready = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const match = /^ready (\d+) (\S+) (\S+)$/.exec(line);
        if (match) resolve({ port: Number(match[1]), slug: match[2], tokens: match[3].split(',') });
        else if (line.startsWith('timings ')) timings.push(JSON.parse(line.slice(8)));
      }
    });
    child.once('exit', (code) => reject(new Error(`the call server exited (${code}) before it was ready`)));
  });
  return {
    ...ready,
    child,
    timings,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const load = await serverSources(repoRoot);
  const { startFakeOpenAi } = await load('test/fake-openai.ts');
  const { CallClient, concat, silence, speech } = await load('test/call-audio.ts');

  const fake = await startFakeOpenAi({ behaviour: { mode: 'ok', text: 'Sure, I am here with you.' } });
  fake.setStt({ text: 'How are you?' });
  const hello = trimTail(await speech('Hello, how are you doing today?'));
  const server = await startCallServer(repoRoot, fake.url, CONCURRENT + 3);
  let addresses = 0;
  const startCall = async (token) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/audio_chat/token`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        // Each call from its own address (the token route's limit is per address).
        'x-forwarded-for': `10.0.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`,
      },
      body: JSON.stringify({ slug: server.slug }),
    });
    if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
    const body = await res.json();
    const client = CallClient.open(`ws://127.0.0.1:${server.port}${body.url}`);
    await client.waitFor('ready');
    return client;
  };
  /** One turn: speech (4× real time), the silence in real time; the reply heard to its end. */
  const turn = async (client) => {
    const from = client.messages.length;
    await client.stream(hello, 4);
    const spokeAt = performance.now();
    const framesBefore = client.audio.length;
    const silent = client.stream(silence(END_OF_TURN_MS + 400), 1);
    const start = await client.waitFor('audio_start', () => true, { from, timeoutMs: 20_000 });
    await client.waitFor('audio_end', (m) => m.turn_id === start.turn_id, { from, timeoutMs: 30_000 });
    const first = client.audio.slice(framesBefore).find((frame) => frame.turn === start.turn_id);
    await client.waitFor('state', (m) => m.state === 'listening', {
      from: client.messages.indexOf(start),
      timeoutMs: 30_000,
    });
    await silent;
    return { voiceToVoice: first.at - spokeAt, turnId: start.turn_id };
  };
  const stage = (turnIds, key) =>
    median(server.timings.filter((t) => turnIds.includes(t.turnId) && t[key] !== undefined).map((t) => t[key]));

  try {
    const tokens = [...server.tokens];
    // 1. Pipeline overhead with instant fakes (one warm-up turn).
    const overhead = [];
    const overheadIds = [];
    {
      const client = await startCall(tokens.shift());
      await turn(client);
      for (let i = 0; i < TURNS; i++) {
        const { voiceToVoice, turnId } = await turn(client);
        overhead.push(voiceToVoice - END_OF_TURN_MS);
        overheadIds.push(turnId);
      }
      client.json({ type: 'hangup' });
      await client.closed;
    }
    const serverOverhead = stage(overheadIds, 'firstAudioMs');
    log(
      `overhead: client p50 ${median(overhead).toFixed(1)} ms (min ${Math.min(...overhead).toFixed(1)}), ` +
        `server p50 ${serverOverhead.toFixed(1)} ms over ${TURNS} turns; stages: recognition ` +
        `${stage(overheadIds, 'sttMs').toFixed(1)} ms, send → first token ${stage(overheadIds, 'firstTokenMs').toFixed(1)} ms, ` +
        `→ first sentence ${stage(overheadIds, 'firstSentenceMs').toFixed(1)} ms, first synthesis ` +
        `${stage(overheadIds, 'firstSynthesisMs').toFixed(1)} ms`,
    );

    // 2. Interruptions: a long reply, spoken over after 800 ms.
    const interruptions = [];
    {
      fake.setBehaviour({
        mode: 'ok',
        text: 'Let me tell you a long story about the sea, the wind and the boats. '.repeat(6),
      });
      const client = await startCall(tokens.shift());
      let from = client.messages.length;
      await client.stream(concat(hello, silence(END_OF_TURN_MS + 400)), 4);
      for (let i = 0; i < Math.max(4, Math.floor(TURNS / 2)); i++) {
        await client.waitFor('audio_start', () => true, { from, timeoutMs: 20_000 });
        await sleep(800);
        from = client.messages.length;
        const startedAt = performance.now();
        const speaking = client.stream(concat(hello, silence(END_OF_TURN_MS + 400)), 1);
        await client.waitFor('interrupt', () => true, { from, timeoutMs: 10_000 });
        interruptions.push(performance.now() - startedAt - MIN_SPEECH_MS);
        await speaking;
      }
      client.json({ type: 'hangup' });
      await client.closed;
    }
    log(`interruption: p50 ${median(interruptions).toFixed(1)} ms after the minimum speech length`);

    // 3. Voice to voice with realistic delays.
    fake.setBehaviour({ mode: 'ok', text: 'Sure, I am here with you. Tell me more about it.', firstDelayMs: 300 });
    fake.setStt({ text: 'How are you?', delayMs: 150 });
    fake.setSpeech({ delayMs: 100 });
    const v2v = [];
    const v2vIds = [];
    {
      const client = await startCall(tokens.shift());
      for (let i = 0; i < Math.max(4, Math.floor(TURNS / 2)); i++) {
        const { voiceToVoice, turnId } = await turn(client);
        v2v.push(voiceToVoice);
        v2vIds.push(turnId);
      }
      client.json({ type: 'hangup' });
      await client.closed;
    }
    const stages = {
      stt: stage(v2vIds, 'sttMs'),
      token: stage(v2vIds, 'firstTokenMs'),
      sentence: stage(v2vIds, 'firstSentenceMs'),
      synthesis: stage(v2vIds, 'firstSynthesisMs'),
      audio: stage(v2vIds, 'firstAudioMs'),
    };
    log(
      `voice to voice p50 ${median(v2v).toFixed(0)} ms; stages: recognition ${stages.stt.toFixed(0)} ms, ` +
        `first token ${stages.token.toFixed(0)} ms and first sentence ${stages.sentence.toFixed(0)} ms after the send, ` +
        `first synthesis ${stages.synthesis.toFixed(0)} ms, end of turn → first frame ${stages.audio.toFixed(0)} ms`,
    );

    // 4. Load: concurrent calls, instant fakes.
    fake.setBehaviour({ mode: 'ok', text: 'Sure, I am here with you. Tell me more about it.' });
    fake.setStt({ text: 'How are you?' });
    fake.setSpeech({});
    const clients = await Promise.all(tokens.slice(0, CONCURRENT).map((token) => startCall(token)));
    const cpuBefore = cpuMicros(server.child.pid);
    const started = performance.now();
    const deadline = started + DURATION_S * 1000;
    let turns = 0;
    await Promise.all(
      clients.map(async (client, i) => {
        await sleep(i * 97);
        while (performance.now() < deadline) {
          await turn(client);
          turns += 1;
        }
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const cpuS = (cpuMicros(server.child.pid) - cpuBefore) / 1e6;
    const cpuPerCallMinute = cpuS / ((clients.length * elapsedS) / 60);
    const gaps = [];
    for (const client of clients) {
      for (let i = 1; i < client.audio.length; i++) {
        const [a, b] = [client.audio[i - 1], client.audio[i]];
        if (a.turn && a.turn === b.turn) gaps.push(b.at - a.at - 20);
      }
    }
    for (const client of clients) client.json({ type: 'hangup' });
    await Promise.all(clients.map((client) => client.closed));
    const perCore = Math.floor((60 / cpuPerCallMinute) * 0.7);
    log(
      `${clients.length} calls for ${elapsedS.toFixed(1)} s, ${turns} turns: server CPU ${cpuS.toFixed(2)} s ` +
        `(${((cpuS / elapsedS) * 100).toFixed(0)} % of a core); frame gaps beyond 20 ms p50 ${median(gaps).toFixed(1)} ms, ` +
        `p99 ${percentile(gaps, 0.99).toFixed(1)} ms`,
    );

    return [
      {
        label: 'calls: pipeline overhead p50 (end of speech → first reply byte − end-of-turn silence)',
        value: median(overhead),
        unit: 'ms',
        target: { max: 50 },
        note: `instant fakes; the server's own figure (turn end detected → first frame sent) ${serverOverhead.toFixed(1)} ms`,
      },
      { label: 'calls: pipeline overhead p99', value: percentile(overhead, 0.99), unit: 'ms' },
      {
        label: 'calls: interruption → interrupt sent p50 (after the minimum speech length)',
        value: median(interruptions),
        unit: 'ms',
        target: { max: 200 },
        note: `raw (first frame of the interruption → interrupt): ${(median(interruptions) + MIN_SPEECH_MS).toFixed(0)} ms`,
      },
      {
        label: 'calls: voice to voice p50 (STT 150 ms, first token 300 ms, TTS 100 ms)',
        value: median(v2v),
        unit: 'ms',
        note: `end-of-turn silence ${END_OF_TURN_MS} ms included`,
      },
      { label: 'calls: stage — recognition', value: stages.stt, unit: 'ms' },
      { label: 'calls: stage — send → first token', value: stages.token, unit: 'ms' },
      { label: 'calls: stage — send → first sentence', value: stages.sentence, unit: 'ms' },
      { label: 'calls: stage — first sentence synthesis', value: stages.synthesis, unit: 'ms' },
      { label: 'calls: stage — turn end detected → first frame', value: stages.audio, unit: 'ms' },
      {
        label: 'calls: server CPU per call-minute',
        value: cpuPerCallMinute,
        unit: 's',
        note: `${clients.length} concurrent calls, Silero VAD, remote STT/LLM/TTS`,
      },
      {
        label: 'calls: concurrent calls one core carries (at 70 % load)',
        value: perCore,
        unit: 'calls',
      },
      {
        label: `calls: reply frame gaps beyond 20 ms, p99 at ${clients.length} calls`,
        value: percentile(gaps, 0.99),
        unit: 'ms',
      },
    ];
  } finally {
    await server.stop();
    await fake.close();
  }
}
