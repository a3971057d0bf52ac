// Voice messages with the default provider (espeak-ng in WebAssembly): the work of one voice
// job — language detection, synthesis, MP3 encoding (lamejs) and storing the file — for
// sentences in each of the five languages, run through the server's own AudioService
// (apps/server/src/modules/audio/audio.service.ts, loaded with tsx) with local storage in a
// temporary folder. Reported: loading the engine (once per process), the median time per
// sentence, synthesis and encoding apart, and the real-time factor (processing time ÷ audio
// duration; below 1 is faster than real time). The two row updates of a job are not
// included (the `unblur` suite measures such statements).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverSources } from '../support/server-sources.mjs';
import { median } from '../support/stats.mjs';

export const name = 'voice';
export const description = 'voice job per sentence and real-time factor, espeak-ng (WASM) + MP3, 5 languages';
export const order = 70;

const ROUNDS = Number(process.env.BENCH_VOICE_ROUNDS ?? 3);

const SENTENCES = {
  en: [
    'I missed you today. Tell me about your evening.',
    'That sounds wonderful, I would love to hear more about your trip to the mountains.',
  ],
  ch: ['我今天很想你，跟我说说你的晚上吧。', '听起来真不错，我很想多听听你去山里旅行的故事。'],
  es: [
    'Hoy te eché de menos. Cuéntame cómo fue tu noche.',
    'Suena maravilloso, me encantaría saber más de tu viaje a la montaña.',
  ],
  de: [
    'Ich habe dich heute vermisst. Erzähl mir von deinem Abend.',
    'Das klingt wunderbar, ich würde gern mehr von deiner Reise in die Berge hören.',
  ],
  ru: [
    'Я сегодня скучала по тебе. Расскажи, как прошёл твой вечер.',
    'Звучит чудесно, я бы с удовольствием послушала ещё о твоей поездке в горы.',
  ],
};

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const load = await serverSources(repoRoot);
  const { AudioService } = await load('src/modules/audio/audio.service.ts');
  const { EspeakTtsProvider } = await load('src/providers/tts/espeak.ts');
  const { LocalMediaStorage } = await load('src/providers/storage/local-storage.ts');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-bench-voice-'));
  const service = new AudioService({
    db: null, // synthesise() does not touch the database
    billing: null, // nor check premium
    storage: new LocalMediaStorage(dir),
    urls: null,
    tts: new EspeakTtsProvider(),
    log: { info() {}, warn() {} },
    timeoutMs: 60_000,
    concurrency: 1,
    mp3Kbps: 32,
  });
  const owner = '00000000-0000-4000-8000-000000000000';
  try {
    const first = performance.now();
    await service.synthesise('Hello.', 'en-us+f3', 'en', undefined, owner);
    const firstMs = performance.now() - first;

    const totals = [];
    const synth = [];
    const encode = [];
    const rtf = [];
    const perLanguage = {};
    let audioS = 0;
    let bytes = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [locale, sentences] of Object.entries(SENTENCES)) {
        for (const sentence of sentences) {
          const started = performance.now();
          const result = await service.synthesise(sentence, 'en-us+f3', locale, undefined, owner);
          const ms = performance.now() - started;
          if (result.language !== locale) throw new Error(`"${sentence}" was read as ${result.language}`);
          totals.push(ms);
          synth.push(result.synthesisMs);
          encode.push(result.encodeMs);
          rtf.push(ms / 1000 / result.durationS);
          (perLanguage[locale] ??= []).push(ms);
          audioS += result.durationS;
          bytes += result.bytes;
        }
      }
    }
    const count = totals.length;
    log(
      `${count} sentences, ${audioS.toFixed(1)} s of audio, ${(bytes / 1024).toFixed(0)} KiB of MP3 ` +
        `(${((bytes * 8) / audioS / 1000).toFixed(1)} kbit/s); per language median: ` +
        Object.entries(perLanguage)
          .map(([l, v]) => `${l} ${median(v).toFixed(0)} ms`)
          .join(', '),
    );
    return [
      { label: 'voice: first job (engine load + one word)', value: firstMs, unit: 'ms' },
      { label: 'voice: time per sentence (median)', value: median(totals), unit: 'ms', target: { max: 1000 } },
      { label: 'voice: time per sentence (slowest)', value: Math.max(...totals), unit: 'ms' },
      { label: 'voice: synthesis per sentence (median)', value: median(synth), unit: 'ms' },
      { label: 'voice: MP3 encoding per sentence (median)', value: median(encode), unit: 'ms' },
      {
        label: 'voice: real-time factor (median)',
        value: median(rtf),
        unit: '×',
        target: { max: 0.5 },
        note: 'processing time ÷ audio duration',
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
