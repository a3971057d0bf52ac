// The calls' WebRTC loopback (docs/calls.md "Echo"): in headless Chromium, the output
// latency it adds to the reply over the direct path (Web Audio straight to `destination`)
// and the time from a flush (barge-in) to silence at the receiving end. The page
// (bench/support/call-loopback-page.mjs) is bundled with esbuild around the web app's own
// loopback.ts and served from 127.0.0.1. Tone bursts (1 kHz, 50 ms) are timed in context
// frames by a detector worklet: on the direct path at the generator's output, on the
// loopback at the received track read back into the same AudioContext. The echo
// cancellation itself cannot be observed headless; this measures that audio flows and when.
/* global window -- code run in the page */
import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { launchChromium } from '../support/chromium.mjs';

export const name = 'call-loopback';
export const description = 'calls: latency the WebRTC loopback adds to the reply, and flush → silence through it';
export const order = 74;

const EXTRA_FLAGS = [
  '--autoplay-policy=no-user-gesture-required',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--allow-loopback-in-peer-connection',
];
const ROUNDS = Number(process.env.BENCH_LOOPBACK_ROUNDS ?? 40);
const FLUSHES = Number(process.env.BENCH_LOOPBACK_FLUSHES ?? 15);

const quantile = (values, q) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const round1 = (value) => Math.round(value * 10) / 10;

/** Bundles the page and serves it on a free port of 127.0.0.1 (a secure context). */
async function servePage(repoRoot) {
  const bundle = await build({
    entryPoints: [path.join(repoRoot, 'bench/support/call-loopback-page.mjs')],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'chrome120',
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0].text;
  const server = http.createServer((request, response) => {
    if (request.url === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>loopback</title><script type="module" src="/page.js"></script>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const page = await servePage(repoRoot);
  const browser = await launchChromium(EXTRA_FLAGS);
  try {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(page.url);
    await tab.waitForFunction(() => typeof window.benchLoopback === 'function');
    const options = { rounds: ROUNDS, flushes: FLUSHES };

    const direct = await tab.evaluate((o) => window.benchDirect(o), options);
    log(`direct: ${direct.onset.length} bursts heard, context ${direct.sampleRate} Hz`);
    const tuned = await tab.evaluate((o) => window.benchLoopback(o), options);
    if (!tuned.connected) throw new Error(`the loopback did not connect (${Math.round(tuned.connectMs)} ms)`);
    log(`loopback: connected in ${Math.round(tuned.connectMs)} ms, ${tuned.onset.length}/${ROUNDS} bursts heard`);
    if (tuned.onset.length < ROUNDS * 0.9)
      throw new Error(`only ${tuned.onset.length} of ${ROUNDS} bursts came through`);
    const plain = await tab.evaluate(
      (o) => window.benchLoopback({ ...o, tuning: { sdp: false, jitterBuffer: false } }),
      options,
    );
    const sdpOnly = await tab.evaluate((o) => window.benchLoopback({ ...o, tuning: { jitterBuffer: false } }), options);
    const directP50 = quantile(direct.onset, 0.5);
    const note = (r) => `p95 ${round1(quantile(r.onset, 0.95))} ms, n=${r.onset.length}`;
    return [
      { label: 'direct path: burst → heard, p50', value: round1(directP50), unit: 'ms', note: note(direct) },
      {
        label: 'loopback: burst → heard, p50',
        value: round1(quantile(tuned.onset, 0.5)),
        unit: 'ms',
        note: `${note(tuned)}; receiver jitter buffer mean ${round1(tuned.jitterBufferMs ?? NaN)} ms`,
      },
      {
        label: 'loopback: added latency, p50',
        value: round1(quantile(tuned.onset, 0.5) - directP50),
        unit: 'ms',
        target: { max: 100 },
      },
      {
        label: 'loopback untuned: burst → heard, p50',
        value: round1(quantile(plain.onset, 0.5)),
        unit: 'ms',
        note: `default SDP, no jitterBufferTarget; ${plain.connected ? note(plain) : 'did not connect'}; jitter buffer ${round1(plain.jitterBufferMs ?? NaN)} ms`,
      },
      {
        label: 'loopback, no jitterBufferTarget: p50',
        value: round1(quantile(sdpOnly.onset, 0.5)),
        unit: 'ms',
        note: `low-latency SDP only; ${sdpOnly.connected ? note(sdpOnly) : 'did not connect'}; jitter buffer ${round1(sdpOnly.jitterBufferMs ?? NaN)} ms`,
      },
      {
        label: 'loopback: flush → silence, p50',
        value: round1(quantile(tuned.flush, 0.5)),
        unit: 'ms',
        target: { max: 100 },
        note: `p95 ${round1(quantile(tuned.flush, 0.95))} ms, n=${tuned.flush.length}; direct ${round1(quantile(direct.flush, 0.5))} ms`,
      },
      { label: 'loopback: connection up', value: Math.round(tuned.connectMs), unit: 'ms' },
    ];
  } finally {
    await browser.close().catch(() => {});
    await page.close();
  }
}
