// Voice activity detection in calls (apps/server/src/providers/vad/): the CPU one call's
// detector spends per second of 16 kHz audio, Silero (sherpa-onnx-node) and WebRTC's VAD
// (fvad in WebAssembly), on a minute of audio mixing espeak-ng speech, silence and low noise.
// CPU is the process's user + system time (process.cpuUsage) around the frames, so threads
// the native code may start count too. Sources loaded with tsx; no server is started.
import { serverSources } from '../support/server-sources.mjs';

export const name = 'vad';
export const description = 'VAD CPU per second of call audio: Silero (sherpa-onnx) and WebRTC (fvad)';
export const order = 72;

const RATE = 16_000;
const SECONDS = Number(process.env.BENCH_VAD_SECONDS ?? 60);

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const load = await serverSources(repoRoot);
  const { EspeakTtsProvider } = await load('src/providers/tts/espeak.ts');
  const { resample } = await load('src/lib/pcm.ts');
  const { SileroVad } = await load('src/providers/vad/silero.ts');
  const { WebRtcVad } = await load('src/providers/vad/webrtc.ts');

  // A minute of call audio: sentences, a second of silence, a second of low noise, repeated.
  const said = await new EspeakTtsProvider().synthesise({
    text: 'I missed you today. Tell me about your evening, and what you had for dinner.',
    voice: 'en-us+f3',
    language: 'en',
  });
  const speech = resample(said.samples, said.sampleRate, RATE);
  const audio = new Int16Array(RATE * SECONDS);
  let seed = 11;
  for (let offset = 0; offset < audio.length;) {
    audio.set(speech.subarray(0, Math.min(speech.length, audio.length - offset)), offset);
    offset += speech.length + RATE; // a second of digital silence
    for (let i = 0; i < RATE && offset < audio.length; i++, offset++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      audio[offset] = Math.round(((seed / 0x7fffffff) * 2 - 1) * 100);
    }
  }
  log(`${SECONDS} s of audio (${(speech.length / RATE).toFixed(1)} s sentences, silence, noise)`);

  const measure = (vad) => {
    // One warm-up second, then the whole minute.
    for (let o = 0; o + vad.frameSamples <= RATE; o += vad.frameSamples)
      vad.speechProbability(audio.subarray(o, o + vad.frameSamples));
    vad.reset();
    let speechFrames = 0;
    let framesCount = 0;
    const cpu = process.cpuUsage();
    const wall = performance.now();
    for (let o = 0; o + vad.frameSamples <= audio.length; o += vad.frameSamples) {
      if (vad.speechProbability(audio.subarray(o, o + vad.frameSamples)) >= 0.5) speechFrames += 1;
      framesCount += 1;
    }
    const wallMs = performance.now() - wall;
    const used = process.cpuUsage(cpu);
    vad.close();
    return {
      cpuMsPerS: (used.user + used.system) / 1000 / SECONDS,
      perFrameUs: (wallMs * 1000) / framesCount,
      speechShare: speechFrames / framesCount,
    };
  };

  const created = performance.now();
  const silero = new SileroVad();
  const sileroStartMs = performance.now() - created;
  const s = measure(silero);
  const createdW = performance.now();
  const webrtc = await WebRtcVad.create(3);
  const webrtcStartMs = performance.now() - createdW;
  const w = measure(webrtc);

  return [
    { label: 'silero: CPU per second of audio', value: s.cpuMsPerS, unit: 'ms', target: { max: 20 } },
    { label: 'silero: time per 32 ms frame', value: s.perFrameUs, unit: 'µs' },
    { label: 'silero: first detector (model load)', value: sileroStartMs, unit: 'ms' },
    { label: 'silero: frames called speech', value: s.speechShare * 100, unit: '%' },
    { label: 'webrtc: CPU per second of audio', value: w.cpuMsPerS, unit: 'ms', target: { max: 20 } },
    { label: 'webrtc: time per 30 ms frame', value: w.perFrameUs, unit: 'µs' },
    { label: 'webrtc: first detector (WASM load)', value: webrtcStartMs, unit: 'ms' },
    { label: 'webrtc: frames called speech', value: w.speechShare * 100, unit: '%' },
  ];
}
