// The page of the `call-loopback` bench, bundled with esbuild together with the web app's
// loopback (apps/web/src/features/calls/audio/loopback.ts) and run in headless Chromium.
// A generator worklet plays tone bursts; a detector worklet on each path's output notes the
// context frame at which it hears them. Direct path: the generator's output as it goes to
// `destination`. Loopback: the received WebRTC track, read back through a
// MediaStreamAudioSourceNode (the <audio> element playing it cannot be tapped).
/* global window, AudioContext, AudioWorkletNode -- a page script */
import { openLoopback } from '../../apps/web/src/features/calls/audio/loopback.ts';

const WORKLETS = `
class Gen extends AudioWorkletProcessor {
  constructor() {
    super();
    this.mode = 'silent';
    this.left = 0;
    this.phase = 0;
    this.port.onmessage = (e) => {
      if (e.data.type === 'burst') { this.mode = 'burst'; this.left = Math.round(sampleRate * 0.05); this.report = 'started'; }
      if (e.data.type === 'tone') { this.mode = 'tone'; this.report = 'started'; }
      if (e.data.type === 'stop') { this.mode = 'silent'; this.port.postMessage({ type: 'stopped', frame: currentFrame }); }
    };
  }
  process(_inputs, outputs) {
    const out = outputs[0][0];
    for (let i = 0; i < out.length; i++) {
      let v = 0;
      if (this.mode === 'tone' || (this.mode === 'burst' && this.left-- > 0)) {
        v = 0.5 * Math.sin(this.phase);
        this.phase += (2 * Math.PI * 1000) / sampleRate;
        if (this.report) { this.port.postMessage({ type: this.report, frame: currentFrame + i }); this.report = null; }
      }
      out[i] = v;
    }
    if (this.mode === 'burst' && this.left <= 0) this.mode = 'silent';
    return true;
  }
}
registerProcessor('bench-gen', Gen);
class Detect extends AudioWorkletProcessor {
  constructor() {
    super();
    this.loud = false;
    this.quiet = 0;
    this.quietFrom = 0;
  }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    for (let i = 0; i < input.length; i++) {
      const frame = currentFrame + i;
      if (Math.abs(input[i]) > 0.05) {
        if (!this.loud) this.port.postMessage({ type: 'heard', frame });
        this.loud = true;
        this.quiet = 0;
      } else if (this.loud) {
        if (this.quiet++ === 0) this.quietFrom = frame;
        // Silent for 10 ms: the sound ended where the quiet began.
        if (this.quiet >= sampleRate * 0.01) { this.loud = false; this.port.postMessage({ type: 'silent', frame: this.quietFrom }); }
      }
    }
    return true;
  }
}
registerProcessor('bench-detect', Detect);
`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const next = (port, type, ms = 1500) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    const listener = (event) => {
      if (event.data.type !== type) return;
      clearTimeout(timer);
      port.removeEventListener('message', listener);
      resolve(event.data.frame);
    };
    port.addEventListener('message', listener);
    port.start();
  });

/** Times `rounds` bursts and `flushes` tone stops on one path; frames → ms. */
async function measure(context, gen, detect, rounds, flushes) {
  const toMs = (frames) => (frames / context.sampleRate) * 1000;
  const onset = [];
  for (let i = 0; i < rounds; i++) {
    const heard = next(detect.port, 'heard');
    const started = next(gen.port, 'started');
    gen.port.postMessage({ type: 'burst' });
    const [s, h] = await Promise.all([started, heard]);
    if (s !== null && h !== null) onset.push(toMs(h - s));
    await sleep(250);
  }
  const flush = [];
  for (let i = 0; i < flushes; i++) {
    const heard = next(detect.port, 'heard');
    gen.port.postMessage({ type: 'tone' });
    if ((await heard) === null) continue;
    await sleep(300);
    const silent = next(detect.port, 'silent');
    const stopped = next(gen.port, 'stopped');
    gen.port.postMessage({ type: 'stop' });
    const [s, q] = await Promise.all([stopped, silent]);
    if (s !== null && q !== null) flush.push(toMs(q - s));
    await sleep(250);
  }
  return { onset, flush };
}

async function setup() {
  // As in a call: the microphone is open (Chromium then reveals host candidates, no mDNS).
  const mic = await navigator.mediaDevices.getUserMedia({ audio: true }).catch(() => null);
  const context = new AudioContext({ latencyHint: 'interactive' });
  await context.resume();
  await context.audioWorklet.addModule(URL.createObjectURL(new Blob([WORKLETS], { type: 'text/javascript' })));
  return { mic, context };
}

/** The direct path: the generator into `destination`, its output tapped. */
window.benchDirect = async ({ rounds, flushes }) => {
  const { mic, context } = await setup();
  const gen = new AudioWorkletNode(context, 'bench-gen', { numberOfInputs: 0, outputChannelCount: [1] });
  const detect = new AudioWorkletNode(context, 'bench-detect', { numberOfOutputs: 0 });
  gen.connect(context.destination);
  gen.connect(detect);
  const result = await measure(context, gen, detect, rounds, flushes);
  mic?.getTracks().forEach((t) => t.stop());
  await context.close();
  return { ...result, sampleRate: context.sampleRate, baseLatencyMs: context.baseLatency * 1000 };
};

/** The loopback: the generator into openLoopback, the received track tapped. */
window.benchLoopback = async ({ rounds, flushes, tuning }) => {
  const { mic, context } = await setup();
  const gen = new AudioWorkletNode(context, 'bench-gen', { numberOfInputs: 0, outputChannelCount: [1] });
  const began = performance.now();
  const loopback = await openLoopback(context, gen, { tuning });
  const connectMs = performance.now() - began;
  if (!loopback) {
    mic?.getTracks().forEach((t) => t.stop());
    await context.close();
    return { connected: false, connectMs };
  }
  const detect = new AudioWorkletNode(context, 'bench-detect', { numberOfOutputs: 0 });
  context.createMediaStreamSource(loopback.stream).connect(detect);
  await sleep(500);
  const result = await measure(context, gen, detect, rounds, flushes);
  const jitterBufferMs = await loopback.jitterBufferMs();
  loopback.close();
  mic?.getTracks().forEach((t) => t.stop());
  await context.close();
  return { connected: true, connectMs, jitterBufferMs, ...result, sampleRate: context.sampleRate };
};
