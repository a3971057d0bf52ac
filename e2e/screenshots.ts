// Desktop and phone screenshots of the main screens of both editions, for a human look:
//   npx tsx e2e/screenshots.ts   → e2e/artifacts/shots/{edition}-{page}-{viewport}[-end].png
// Not a test: it asserts nothing, but it reports pages wider than the viewport (horizontal
// overflow), which is almost always a layout bug on phones.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  artifactsDir,
  launchBrowser,
  startServers,
  VIEWPORTS,
  waitForQuiet,
  type EditionId,
  type ViewportName,
} from './harness';

const outDir = path.join(artifactsDir, 'shots');

interface Shot {
  name: string;
  path: string;
  /** Confirm the age gate first (everything but the gate itself). */
  ageConfirmed: boolean;
  viewports: ViewportName[];
  /** Something to do before the picture (open a menu). */
  before?: (page: Page) => Promise<void>;
}

const SHOTS: Shot[] = [
  { name: 'home', path: '/', ageConfirmed: true, viewports: ['desktop', 'phone'] },
  { name: 'blog', path: '/blog', ageConfirmed: true, viewports: ['desktop', 'phone'] },
  { name: '404', path: '/no/such/page', ageConfirmed: true, viewports: ['desktop', 'phone'] },
  { name: 'age-gate', path: '/', ageConfirmed: false, viewports: ['desktop', 'phone'] },
  {
    name: 'menu',
    path: '/',
    ageConfirmed: true,
    viewports: ['phone'],
    before: async (page) => {
      await page.getByTestId('burger').click();
      await page.getByTestId('side-panel').waitFor();
      await page.waitForTimeout(400); // the panel's opening animation
    },
  },
];

async function settle(page: Page) {
  await waitForQuiet(page);
  await page
    .locator('[data-testid=footer], [data-testid=error-page], [data-testid=age-gate]')
    .first()
    .waitFor({ timeout: 15_000 });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
}

async function capture(browser: Browser, baseURL: string, edition: EditionId, shot: Shot, viewport: ViewportName) {
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS[viewport],
    locale: 'en-US',
    timezoneId: 'UTC',
    ...(viewport === 'phone' ? { hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  try {
    if (shot.ageConfirmed) await context.addInitScript(() => localStorage.setItem('age_confirmed', '1'));
    const page = await context.newPage();
    const response = await page.goto(shot.path);
    await settle(page);
    if (shot.before) await shot.before(page);
    const base = path.join(outDir, `${edition}-${shot.name}-${viewport}`);
    await page.screenshot({ path: `${base}.png` });
    const size = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      scrollHeight: document.documentElement.scrollHeight,
      innerHeight: window.innerHeight,
    }));
    const notes = [`HTTP ${response?.status()}`, `height ${size.scrollHeight}px`];
    // Fixed bars stay where they are in a full-page capture, so show the end of a long page
    // as the user sees it: scrolled down, in the viewport.
    if (size.scrollHeight > size.innerHeight && !shot.before) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${base}-end.png` });
      notes.push('+ -end.png');
    }
    if (size.scrollWidth > size.innerWidth)
      notes.push(`OVERFLOW: ${size.scrollWidth}px wide in a ${size.innerWidth}px viewport`);
    console.log(`${path.relative(process.cwd(), base)}.png  (${notes.join(', ')})`);
  } finally {
    await context.close();
  }
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const { servers, stop } = await startServers(['reverie', 'amoura']);
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    for (const edition of ['reverie', 'amoura'] as const) {
      for (const shot of SHOTS) {
        for (const viewport of shot.viewports) await capture(browser, servers[edition].url, edition, shot, viewport);
      }
    }
  } finally {
    await browser?.close();
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
