// A first visit on a slow phone: headless Chromium (through playwright-core) with the
// network and CPU throttled over the DevTools protocol — Fast 3G (150 ms round trip,
// 1.6 Mbit/s down, 750 kbit/s up: `Network.emulateNetworkConditions`) and a 4× slower CPU
// (`Emulation.setCPUThrottlingRate`) — at 390×844. For `/` and for a character's chat page
// (`/{slug}`), each visited cold (a new browser context: empty cache), it reports the first
// contentful paint (the browser's `first-contentful-paint` entry) and the first character
// picture on screen (the first `/api/media/…` picture that has loaded, at the next frame).
// The age gate is confirmed beforehand (local storage), as for a returning visitor.
/* global window, document, HTMLImageElement, requestAnimationFrame -- code run in the page */
import { launchChromium } from '../support/chromium.mjs';

export const name = 'slow-phone';
export const description = 'first paint and first character picture on / and a chat page, Fast 3G + 4× CPU';
export const order = 35;

/** Fast 3G as Chrome's DevTools define it. */
const FAST_3G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  connectionType: 'cellular3g',
};
const CPU_SLOWDOWN = 4;
const ROUNDS = Number(process.env.BENCH_SLOW_PHONE_ROUNDS ?? 3);
const TIMEOUT_MS = 60_000;

/** Records when the first character picture has loaded and been painted. */
function watchPictures() {
  window.__firstPicture = null;
  document.addEventListener(
    'load',
    (event) => {
      const img = event.target;
      if (window.__firstPicture !== null || !(img instanceof HTMLImageElement)) return;
      if (!img.currentSrc.includes('/api/media/')) return;
      requestAnimationFrame(() => {
        if (window.__firstPicture === null) window.__firstPicture = performance.now();
      });
    },
    true,
  );
  localStorage.setItem('age_confirmed', '1');
}

async function visit(browser, url) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(watchPictures);
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength));
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    await page.waitForFunction(() => window.__firstPicture !== null, null, { timeout: TIMEOUT_MS, polling: 100 });
    const fcp = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    );
    const picture = await page.evaluate(() => window.__firstPicture);
    return { fcp, picture, bytes };
  } finally {
    await context.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** @param {{ startServer: Function, log: Function }} ctx */
export async function run({ startServer, log }) {
  // A first start (a new database, migrations, seed) can be slow on a busy machine.
  const server = await startServer({ appName: 'reverie', env: { LOG_LEVEL: 'warn' }, timeoutMs: 300_000 });
  const browser = await launchChromium();
  try {
    const list = await (await fetch(`${server.url}/api/bots/available?size=1&tags=official`)).json();
    const slug = list.results[0]?.slug;
    if (!slug) throw new Error('no official character to open a chat page with');
    const pages = [
      { label: '/', path: '/' },
      { label: 'chat page', path: `/${slug}` },
    ];
    // One warm-up visit: the server's first answers (its caches, the JIT) are not the phone's.
    await visit(browser, `${server.url}/`);
    const results = [];
    for (const { label, path } of pages) {
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) {
        const run = await visit(browser, `${server.url}${path}`);
        log(
          `${label.padEnd(10)} run ${i + 1}: FCP ${run.fcp.toFixed(0)} ms, first picture ${run.picture.toFixed(0)} ms, ${(run.bytes / 1000).toFixed(0)} kB transferred`,
        );
        runs.push(run);
      }
      results.push(
        {
          label: `${label}: first contentful paint (median of ${ROUNDS})`,
          value: median(runs.map((r) => r.fcp)) / 1000,
          unit: 's',
          target: { max: 1.5 },
          note: 'Fast 3G, 4× CPU, 390×844, empty cache',
        },
        {
          label: `${label}: first character picture (median of ${ROUNDS})`,
          value: median(runs.map((r) => r.picture)) / 1000,
          unit: 's',
          target: { max: 3 },
        },
        {
          label: `${label}: bytes transferred until then (median)`,
          value: median(runs.map((r) => r.bytes)) / 1000,
          unit: 'kB',
        },
      );
    }
    return results;
  } finally {
    await browser.close();
    await server.stop();
  }
}
