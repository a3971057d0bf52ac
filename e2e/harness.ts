// The end-to-end harness: the real built server on a fresh embedded database, driven by
// Debian's Chromium through playwright-core (no browser download).
//
// - `startServers` (run once by e2e/global-setup.ts) builds the app when needed and starts one
//   server per edition; the test files get their addresses through Vitest's `inject`.
// - `useBrowser()` (called at the top of a test file) launches Chromium for that file and
//   gives the tests a `page()` factory; a failing test leaves a screenshot of every page it
//   opened in e2e/artifacts/; contexts, pages and the browser are closed afterwards.
// - `useChatJourney()` (likewise) gives a chat journey a world of its own: a fake model, a
//   server on a new PostgreSQL database that talks to it, the official character it chats
//   with, and Chromium (support/pg-app.ts).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject, type TestContext } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../bench/support/chromium.mjs';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../apps/server/test/fake-openai';
import { ensureBuilt, repoRoot, startServer, type RunningServer } from './support/app-server.mjs';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

export type EditionId = 'reverie' | 'amoura';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the running server of each edition. */
    e2eServers: Record<EditionId, string>;
  }
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export const artifactsDir = path.join(repoRoot, 'e2e', 'artifacts');

/** Chromium's path and flags: the same as the benchmarks' (bench/support/chromium.mjs). */
export { CHROMIUM_FLAGS as CHROMIUM_ARGS, CHROMIUM_PATH as chromiumPath };

/**
 * Launches Chromium. playwright-core refuses `--user-data-dir` in `args` for `launch()`; it
 * creates a fresh temporary profile itself (and deletes it on close), which is what the flag
 * would do. Every `newContext()` is a further isolated, incognito-like profile.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, timeout: 60_000 });
}

/**
 * Builds the app if it is missing or older than its sources, then starts one server per
 * edition in parallel, each on a free port with its own temporary PGlite database.
 */
export async function startServers(
  editions: readonly EditionId[] = ['reverie', 'amoura'],
): Promise<{ servers: Record<EditionId, RunningServer>; stop: () => Promise<void> }> {
  ensureBuilt({ log: (message: string) => console.log(`[e2e] ${message}`) });
  // E2E_START_TIMEOUT_MS: a longer wait for /api/health on a busy machine (the first start seeds).
  const timeoutMs = Number(process.env.E2E_START_TIMEOUT_MS) || undefined;
  const started = await Promise.allSettled(editions.map((appName) => startServer({ appName, timeoutMs })));
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    await Promise.all(running.map((server) => server.stop()));
  };
  const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const servers = Object.fromEntries(editions.map((edition, i) => [edition, running[i]!])) as Record<
    EditionId,
    RunningServer
  >;
  return { servers, stop };
}

export interface PageOptions {
  viewport?: ViewportName;
  edition?: EditionId;
  /** Pre-confirm the 18+ age gate (localStorage `age_confirmed`), as a returning guest. */
  ageConfirmed?: boolean;
}

export interface BrowserFixture {
  /** A new page in a fresh browser context (own localStorage, cookies) for the viewport. */
  page(options?: PageOptions): Promise<Page>;
  /** Base URL of an edition's server. */
  url(edition?: EditionId): string;
}

function slug(text: string) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/** How much of a failed page's text goes into the log. */
const FAILED_TEXT_CHARS = 1200;

async function screenshotOnFailure(context: TestContext, pages: Page[]) {
  if (context.task.result?.state !== 'fail') return;
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = slug(path.basename(context.task.file?.name ?? 'e2e'));
  const test = slug(context.task.name);
  let index = 0;
  for (const page of pages) {
    if (page.isClosed()) continue;
    const target = path.join(artifactsDir, `FAILED-${file}-${test}${index ? `-${index}` : ''}.png`);
    index += 1;
    try {
      await page.screenshot({ path: target, fullPage: true, timeout: 10_000 });
      console.error(`[e2e] screenshot of the failed test: ${path.relative(repoRoot, target)} (${page.url()})`);
    } catch (error) {
      console.error(`[e2e] could not take a screenshot: ${(error as Error).message}`);
    }
    // CI keeps its log, not the screenshots: what the page said goes there too.
    const text = await page
      .evaluate(() => document.body?.innerText ?? '')
      .then((body) => body.replace(/\s+/g, ' ').trim().slice(0, FAILED_TEXT_CHARS))
      .catch((error: Error) => `(unreadable: ${error.message})`);
    console.error(`[e2e] the page's text: ${text}`);
  }
}

/**
 * Registers this file's browser lifecycle: Chromium before the first test, a screenshot of
 * each open page when a test fails, every context closed after each test, the browser closed
 * after the last.
 */
export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  let pages: Page[] = [];
  const servers = inject('e2eServers');

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async (context) => {
    await screenshotOnFailure(context, pages);
    await Promise.allSettled(contexts.map((c) => c.close()));
    contexts = [];
    pages = [];
  });

  afterAll(async () => {
    await browser?.close();
  });

  const url = (edition: EditionId = 'reverie') => {
    const base = servers?.[edition];
    if (!base) throw new Error(`no ${edition} server: run the journeys with --config e2e/vitest.config.ts`);
    return base;
  };

  return {
    url,
    async page({ viewport = 'desktop', edition = 'reverie', ageConfirmed = false } = {}) {
      if (!browser) throw new Error('the browser is not running (call page() inside a test)');
      const context = await browser.newContext({
        baseURL: url(edition),
        viewport: VIEWPORTS[viewport],
        // Deterministic language negotiation and formatting, whatever the machine's locale.
        locale: 'en-US',
        timezoneId: 'UTC',
        ...(viewport === 'phone' ? { hasTouch: true, deviceScaleFactor: 2 } : {}),
      });
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(30_000);
      if (ageConfirmed) {
        await context.addInitScript(() => {
          if (!window.localStorage.getItem('age_confirmed')) window.localStorage.setItem('age_confirmed', '1');
        });
      }
      contexts.push(context);
      const page = await context.newPage();
      pages.push(page);
      return page;
    },
  };
}

/** A value from a locale file in packages/shared/src/locales, read at test time. */
export function readLocaleText(locale: string, key: string): string | undefined {
  const file = path.join(repoRoot, 'packages/shared/src/locales', `${locale}.json`);
  let value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const part of key.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/**
 * Waits until the page has loaded and fetched nothing new for `quietMs` (its resource entries
 * stay the same). Playwright's `networkidle` never comes for a signed-in page: the user's
 * event stream (`GET /api/events`, docs/companion.md) stays open for as long as the page does.
 */
export async function waitForQuiet(page: Page, quietMs = 600, timeoutMs = 30_000) {
  await page.waitForLoadState('load');
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let since = Date.now();
  while (Date.now() < deadline) {
    const count = await page.evaluate(() => performance.getEntriesByType('resource').length);
    if (count !== last) {
      last = count;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the page kept fetching for ${timeoutMs} ms`);
}

/** The official character a chat journey talks to: public, approved, style `realistic`. */
export interface JourneyCharacter {
  slug: string;
  name: string;
  age: number;
  description: string;
  greeting: string;
  /** Its voice; null: the column's default. */
  voice?: string | null;
}

/** What `useChatJourney` starts before the file's tests; read it inside them. */
export interface ChatJourney {
  /** The server of its own, on PostgreSQL (not seeded). */
  readonly app: PgApp;
  /** The fake OpenAI-compatible model the server talks to. */
  readonly model: FakeOpenAi;
  readonly browser: Browser;
  /** The character, as inserted. */
  readonly bot: { id: string; slug: string };
  /** A browser context signed in as the user (`PgApp.signedInContext` on the journey's browser). */
  signedIn(userId: string, viewport?: { width: number; height: number }): Promise<BrowserContext>;
}

/**
 * Registers a chat journey's world: before the file's tests the fake model (`behaviour`), a
 * server of its own on a new PostgreSQL database that talks to it (`env` added to its
 * settings; `SEED_ON_START=false`), the official `character`, then `prepare` (more rows,
 * media) and Chromium; after them, all of it stopped.
 */
export function useChatJourney(options: {
  behaviour: NonNullable<FakeOpenAiOptions['behaviour']>;
  character: JourneyCharacter;
  env?: Record<string, string>;
  prepare?: (journey: ChatJourney) => Promise<void>;
}): ChatJourney {
  const parts: { app?: PgApp; model?: FakeOpenAi; browser?: Browser; bot?: ChatJourney['bot'] } = {};
  const part = <K extends keyof typeof parts>(key: K): NonNullable<(typeof parts)[K]> => {
    const value = parts[key];
    if (!value) throw new Error(`the journey's ${key} is not running (read it inside a test)`);
    return value;
  };
  const journey: ChatJourney = {
    get app() {
      return part('app');
    },
    get model() {
      return part('model');
    },
    get browser() {
      return part('browser');
    },
    get bot() {
      return part('bot');
    },
    signedIn: (userId, viewport) => journey.app.signedInContext(journey.browser, userId, viewport),
  };

  beforeAll(async () => {
    parts.model = await startFakeOpenAi({ behaviour: options.behaviour });
    parts.app = await startPgApp({
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: parts.model.url,
      LLM_MODEL: 'fake-model',
      SEED_ON_START: 'false',
      ...options.env,
    });
    parts.bot = await insertCharacter(parts.app, options.character);
    await options.prepare?.(journey);
    parts.browser = await launchChromium();
  }, 240_000);

  // A failed test leaves a picture of each page the journey's contexts hold.
  afterEach(async (context) => {
    if (parts.browser)
      await screenshotOnFailure(
        context,
        parts.browser.contexts().flatMap((c) => c.pages()),
      );
  });

  afterAll(async () => {
    await parts.browser?.close().catch(() => {});
    await parts.app?.stop();
    await parts.model?.close();
  });

  return journey;
}

async function insertCharacter(app: PgApp, character: JourneyCharacter): Promise<{ id: string; slug: string }> {
  const { voice = 'en-us+f3', ...fields } = character;
  const row = {
    ...fields,
    tags: ['realistic'],
    visibility: 'public',
    review_state: 'approved',
    is_official: true,
    ...(voice === null ? {} : { voice }),
  };
  const [bot] = await app.sql<{ id: string; slug: string }[]>`insert into bots ${app.sql(row)} returning id, slug`;
  return bot!;
}
