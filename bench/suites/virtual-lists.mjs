// Virtualisers compared on a chat-like list (issue 29's scroll target, docs/chat.md "Long chats"):
// the same page (bench/support/virtual-lists/, built here with Vite) draws BENCH_VLIST_COUNT
// (3 000) bubbles of nine heights (the text of a message, 1–9 sentences), opened at the end, with
// react-virtuoso set up as the chat's list is (given a count of rows, and given the rows as
// `data` as the chat gives them: the second measures row 0 first, the shortest here, and guesses
// every row at its height, so that it mounts rows again and again — bench/README.md "Long-chat
// scroll: the cause and the fix"), with @tanstack/react-virtual told each row's
// height estimated from its text, and with every row in the page (the baseline: what the machine
// allows). In headless Chromium at 390×844 with 4× CPU throttling, each list is scrolled up
// 120 px a frame until BENCH_VLIST_ROWS (400) rows have gone by: frames per second from
// requestAnimationFrame timestamps, the p95 frame, the frames it took (a list that corrects the
// scroll by its rows' errors takes back part of each step) and how many rows were put into the
// page on the way (react-virtuoso's item boxes, the rows themselves otherwise: each row once is
// the least; a row mounted, dropped and mounted again is the list settling on heights it had
// guessed). The four run in turn, BENCH_VLIST_ROUNDS (3) rounds; the figure is
// each list's median. Bare rows: what the list costs, not what the app's rows cost.
/* global document, requestAnimationFrame, MutationObserver -- code run in the page */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../support/chromium.mjs';
import { median, percentile } from '../support/stats.mjs';

export const name = 'virtual-lists';
export const description =
  'react-virtuoso vs @tanstack/react-virtual vs a static list: scroll up fps of varied-height bubbles in a throttled phone browser';
export const order = 73;

const COUNT = Number(process.env.BENCH_VLIST_COUNT ?? 3000);
const ROWS = Number(process.env.BENCH_VLIST_ROWS ?? 400);
/** A scroll that has not passed ROWS rows after this many frames stops there. */
const FRAMES = 3000;
const ROUNDS = Number(process.env.BENCH_VLIST_ROUNDS ?? 3);
const STEP_PX = 120;
const KINDS = ['static', 'virtuoso', 'virtuoso-data', 'tanstack'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Scrolls the page's list up `step` px a frame for `frames` frames; its frame times and rows mounted. */
function scrollUp({ rows: wanted, frames: most, step }) {
  const scroller = document.querySelector('[data-scroller]');
  // The first row in view (react-virtuoso's item boxes and TanStack's rows carry the row's
  // index), found by halving: the static list holds every row, and reading each one's box every
  // frame would be the bench's own cost.
  const firstInView = () => {
    const top = scroller.getBoundingClientRect().top + 1;
    const ordered = scroller.querySelectorAll('[data-index]'); // in the order of the rows
    let low = 0;
    let high = ordered.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ordered[mid].getBoundingClientRect().bottom > top) high = mid;
      else low = mid + 1;
    }
    return ordered.length ? Number(ordered[low].dataset.index) : Number.NaN;
  };
  const from = firstInView();
  let mounted = 0;
  const rows = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes)
        if (node.nodeType === 1 && node.matches('[data-row], [data-index]')) mounted += 1;
  });
  rows.observe(scroller, { childList: true, subtree: true });
  return new Promise((resolve) => {
    const frames = [];
    const frame = (now) => {
      frames.push(now);
      scroller.scrollTop -= step;
      if (from - firstInView() >= wanted || frames.length >= most || scroller.scrollTop <= 0) {
        rows.disconnect();
        resolve({ frames, mounted, passed: from - firstInView() });
      } else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const { build } = await import('vite');
  const source = path.join(repoRoot, 'bench/support/virtual-lists');
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-vlists-'));
  await build({
    root: source,
    logLevel: 'warn',
    configFile: false,
    build: { outDir: dist, emptyOutDir: true },
  });
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = path.join(dist, pathname === '/' ? 'index.html' : path.normalize(pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium();
  const results = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 ? [...KINDS].reverse() : KINDS) {
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.goto(`${url}?kind=${kind}&count=${COUNT}`, { waitUntil: 'load' });
        await page.waitForSelector('[data-row]');
        await page.waitForTimeout(2000);
        const { frames, mounted, passed } = await page.evaluate(scrollUp, {
          rows: ROWS,
          frames: FRAMES,
          step: STEP_PX,
        });
        const gaps = frames.slice(1).map((t, i) => t - frames[i]);
        const fps = gaps.length / ((frames.at(-1) - frames[0]) / 1000);
        const p95 = percentile(gaps, 0.95);
        results[kind].push({ fps, p95, mounted, passed, frames: frames.length });
        log(
          `${kind}, round ${round + 1}: ${fps.toFixed(1)} fps, p95 frame ${p95.toFixed(1)} ms, ${mounted} rows mounted in ${frames.length} frames, ${passed} rows passed`,
        );
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  }
  const pick = (kind) => ({
    fps: median(results[kind].map((r) => r.fps)),
    p95: median(results[kind].map((r) => r.p95)),
    mounted: median(results[kind].map((r) => r.mounted)),
    passed: median(results[kind].map((r) => r.passed)),
    frames: median(results[kind].map((r) => r.frames)),
  });
  const base = pick('static');
  const labels = {
    static: 'every row in the page (baseline)',
    virtuoso: 'react-virtuoso, set up as the chat, a count of rows',
    'virtuoso-data': 'react-virtuoso, set up as the chat, the rows as data',
    tanstack: '@tanstack/react-virtual, heights estimated',
  };
  return KINDS.map((kind) => {
    const figure = pick(kind);
    return {
      label: `Chromium 390×844, 4× CPU: scroll up ${COUNT.toLocaleString('en')} bare bubbles, ${labels[kind]}`,
      value: figure.fps,
      unit: 'fps',
      note: `median of ${ROUNDS}; p95 frame ${figure.p95.toFixed(1)} ms; ${figure.mounted} rows mounted and ${figure.passed} passed in ${figure.frames} frames of ${STEP_PX} px${kind === 'static' ? '' : `; the static list ${base.fps.toFixed(1)} fps in the same run`}`,
    };
  });
}
