import fs from 'node:fs';
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/helpers.js';
import { ModelHosts } from '../../../test/model-host.js';
import { createLocalSttProvider, LocalSttProvider, whisperFiles } from './local.js';
import { CachedCheck } from './availability.js';
import { SttError } from './stt-provider.js';

/**
 * The local recognizer's life: pulled from a model host on the loopback (fake files with the
 * real names), then loaded by sherpa-onnx-node — which must refuse the fake files with an
 * error, never crash the process — and `stt_unavailable` whenever it cannot work.
 */

const hosts = new ModelHosts();
afterEach(() => hosts.closeAll());

async function host(answer: (url: string, res: http.ServerResponse) => void) {
  const started = await hosts.start((req, res) => answer(req.url!, res), '/whisper');
  return {
    url: started.url,
    get gets() {
      return started.requests.map((r) => r.url);
    },
  };
}

function logger() {
  const lines: string[] = [];
  return {
    lines,
    info: (m: string) => lines.push(m),
    warn: (m: string) => lines.push(m),
    error: (m: string) => lines.push(m),
  };
}

function provider(baseUrl: string) {
  const dir = hosts.tempDir('reverie-stt-');
  const log = logger();
  const stt = new LocalSttProvider({
    model: 'whisper-tiny',
    baseUrl,
    dir,
    threads: 1,
    log,
    pull: { attempts: 2, retryDelayMs: 10, stallMs: 2000 },
  });
  return { stt, dir, log };
}

const utterance = { pcm: new Int16Array(16_000), sampleRate: 16_000, language: 'en' as const };

describe('LocalSttProvider', () => {
  it('names the official sherpa-onnx Whisper files on Hugging Face by default', () => {
    expect(whisperFiles('whisper-tiny').map((f) => f.url)).toEqual([
      'https://huggingface.co/csukuangfj/sherpa-onnx-whisper-tiny/resolve/main/tiny-encoder.int8.onnx',
      'https://huggingface.co/csukuangfj/sherpa-onnx-whisper-tiny/resolve/main/tiny-decoder.int8.onnx',
      'https://huggingface.co/csukuangfj/sherpa-onnx-whisper-tiny/resolve/main/tiny-tokens.txt',
    ]);
    const stt = createLocalSttProvider(testConfig({ STT_LOCAL_MODEL: 'whisper-base', DATA_DIR: '/tmp/r' }), logger());
    expect(stt.status()).toEqual({ state: 'loading', progress: null });
  });

  it('pulls the model with progress, then reports an invalid model as stt_unavailable instead of crashing', async () => {
    const file = Buffer.alloc(400_000, 7);
    const model = await host((_url, res) => {
      res.writeHead(200, { 'content-length': file.length });
      res.end(file);
    });
    const { stt, dir, log } = provider(model.url);
    const seen: unknown[] = [];
    const timer = setInterval(() => seen.push(stt.status()), 1);
    const failure = await stt.prepare().catch((e: unknown) => e);
    clearInterval(timer);
    expect(model.gets).toEqual([
      '/whisper/tiny-encoder.int8.onnx',
      '/whisper/tiny-decoder.int8.onnx',
      '/whisper/tiny-tokens.txt',
    ]);
    // Whole files under their own names, nothing temporary left.
    expect(fs.readdirSync(dir).sort()).toEqual(['tiny-decoder.int8.onnx', 'tiny-encoder.int8.onnx', 'tiny-tokens.txt']);
    expect(seen.some((s) => (s as { state: string }).state === 'loading')).toBe(true);
    expect(log.lines.some((l) => /downloading the speech recognition model whisper-tiny/.test(l))).toBe(true);
    // The files are not a Whisper model: sherpa-onnx refuses them with an error.
    expect(failure).toBeInstanceOf(SttError);
    expect(failure).toMatchObject({ code: 'stt_unavailable' });
    expect(stt.status()).toMatchObject({
      state: 'unavailable',
      reason: expect.stringMatching(/cannot load the speech recognition model/),
    });
    await expect(stt.transcribe(utterance)).rejects.toMatchObject({ code: 'stt_unavailable' });
  });

  it('without internet: unavailable with the reason, no partial file, and no retry storm', async () => {
    const model = await host((_url, res) => {
      res.writeHead(503);
      res.end();
    });
    const { stt, dir } = provider(model.url);
    await expect(stt.prepare()).rejects.toMatchObject({ name: 'SttError', code: 'stt_unavailable' });
    const status = stt.status();
    expect(status.state).toBe('unavailable');
    expect(status.state === 'unavailable' && status.reason).toMatch(
      /cannot download the speech recognition model whisper-tiny.*503/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
    const asked = model.gets.length;
    expect(asked).toBe(2); // the first file, tried twice
    // Later calls answer the same failure without asking the host again.
    await expect(stt.prepare()).rejects.toMatchObject({ code: 'stt_unavailable' });
    await expect(stt.transcribe(utterance)).rejects.toMatchObject({ code: 'stt_unavailable' });
    expect(model.gets.length).toBe(asked);
  });

  it('answers stt_unavailable while the model is still loading', async () => {
    const model = await host(() => undefined); // never answers
    const { stt } = provider(model.url);
    const failure = await stt.transcribe(utterance).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'stt_unavailable', message: expect.stringMatching(/still loading/) });
    await stt.close();
  });

  it('knows before a call whether it can run: files present, or a host that answers, probed once a minute', async () => {
    const model = await host((_url, res) => {
      res.writeHead(404);
      res.end();
    });
    const { stt, dir } = provider(model.url);
    // Missing files, a host that answers (any status below 500): pullable.
    expect(await stt.availability()).toEqual({ ok: true });
    expect(await stt.availability('fresh')).toEqual({ ok: true });
    expect(model.gets).toEqual([]); // a HEAD of the host only (not recorded): nothing is downloaded
    // Files in place: no network needed at all.
    const other = provider('http://127.0.0.1:9/none');
    for (const file of whisperFiles('whisper-tiny')) fs.writeFileSync(`${other.dir}/${file.name}`, 'x');
    expect(await other.stt.availability()).toEqual({ ok: true });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('no model and a host that cannot be reached: unavailable at once, with the reason, nothing pulled', async () => {
    const { stt, dir } = provider('http://127.0.0.1:9/whisper');
    const started = Date.now();
    const [first, second] = await Promise.all([stt.availability(), stt.availability()]);
    expect(Date.now() - started).toBeLessThan(3500);
    expect(first).toMatchObject({ ok: false, reason: 'stt_model_unavailable' });
    expect(first.ok === false && first.detail).toMatch(/whisper-tiny.*cannot be downloaded.*127\.0\.0\.1:9/);
    expect(second).toEqual(first);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(stt.status()).toEqual({ state: 'loading', progress: null });
  });
});

describe('CachedCheck', () => {
  it('probes once for concurrent callers, keeps the answer, answers an aged one at once while refreshing', async () => {
    let clock = 0;
    let runs = 0;
    let answer = 'a';
    const check = new CachedCheck(
      async () => {
        runs += 1;
        return answer;
      },
      () => 1000,
      () => clock,
    );
    expect(await Promise.all([check.get(), check.get('fresh')])).toEqual(['a', 'a']);
    expect(runs).toBe(1);
    clock = 500;
    expect(await check.get('fresh')).toBe('a');
    expect(runs).toBe(1);
    clock = 1500;
    answer = 'b';
    expect(await check.get()).toBe('a'); // aged: answered at once, refreshed behind
    expect(await check.get()).toBe('b');
    expect(runs).toBe(2);
    clock = 3000;
    answer = 'c';
    expect(await check.get('fresh')).toBe('c'); // fresh waits for the new probe
  });
});
