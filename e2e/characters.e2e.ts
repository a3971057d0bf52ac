import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import postgres from 'postgres';
import sharp from 'sharp';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Journey: explore → Anime filter → scrolling loads 15 more → a character's page shows its
 * name and greeting; then a signed-in user creates a character with a photo and finds it
 * first in the list. The server runs on its own PostgreSQL database so the test can insert
 * the user and sign its token with the server's secret.
 */
const root = path.resolve(import.meta.dirname, '..');
const ADMIN_URL = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = `e2e-${randomBytes(22).toString('hex')}`; // 48 characters
const dbName = `reverie_e2e_${randomBytes(5).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-'));

let server: ChildProcess | null = null;
let browser: Browser | null = null;
let admin: postgres.Sql;
let sql: postgres.Sql | null = null;
let baseUrl = '';
let serverLog = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function waitForHealth(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) throw new Error(`server exited:\n${serverLog}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not start:\n${serverLog}`);
}

async function passAgeGate(page: Page) {
  await page.getByRole('button', { name: 'I am 18 or older' }).click();
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'apps/server/dist/server.js')) || !fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
  admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: withDatabase(ADMIN_URL, dbName),
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (serverLog += d));
  server.stderr?.on('data', (d) => (serverLog += d));
  await waitForHealth(baseUrl, 150_000);
  sql = postgres(withDatabase(ADMIN_URL, dbName), { max: 2, onnotice: () => {} });
  // Enough anime characters that the Anime filter has more than one page (30 + 15).
  for (let i = 0; i < 40; i++) {
    await sql`insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, created_at)
      values (${`extra-anime-${i}`}, ${`Extra Anime ${i}`}, ${21 + (i % 20)}, ${'A community anime character.'}, ${'Hey there!'},
              ${['anime']}, 'public', 'approved', false, ${new Date(Date.UTC(2025, 5, 1) - i * 60_000)})`;
  }
  // Playwright gives every launch a fresh temporary profile (its own --user-data-dir).
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await sql?.end().catch(() => {});
  if (admin) {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('characters journey', () => {
  it('explore → Anime → scroll loads 15 more → a character page shows name and greeting', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await passAgeGate(page);
    const grid = page.getByTestId('character-grid');
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('30');

    await page.getByRole('button', { name: 'Anime', exact: true }).click();
    await expect.poll(async () => page.getByRole('button', { name: 'Anime', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('30');
    const cards = page.getByTestId('character-card');
    const firstPageNames = await cards.locator('h3').allInnerTexts();

    await page.mouse.wheel(0, 20_000);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 20_000 }).toBe('45');
    const allNames = await cards.locator('h3').allInnerTexts();
    expect(allNames.slice(0, 30)).toEqual(firstPageNames);
    expect(new Set(allNames).size).toBe(45);

    const target = cards.first();
    const name = (await target.locator('h3').innerText()).replace(/\s*\d+$/, '').trim();
    await target.click();
    const profile = page.getByTestId('character-page');
    await expect.poll(() => profile.locator('h1').innerText(), { timeout: 20_000 }).toContain(name);
    const greeting = await page.getByTestId('greeting').innerText();
    expect(greeting.length).toBeGreaterThan(5);
    await context.close();
  });

  it('a signed-in user creates a character with a photo and it is first in the list', async () => {
    const userId = randomUUID();
    await sql!`insert into users (id, username, email, password_hash, name, age)
      values (${userId}, ${'e2e_user'}, ${'e2e@example.test'}, ${'!e2e'}, ${'E2E User'}, ${30})`;
    const key = new TextEncoder().encode(JWT_SECRET);
    const sign = (audience: string) =>
      new SignJWT({ role: 'user' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer('reverie')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('15m')
        .sign(key);
    const access = await sign('access');
    const refresh = await sign('refresh');

    const context = await browser!.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(
      ([a, r]) => {
        localStorage.setItem('access_token', a!);
        localStorage.setItem('refresh_token', r!);
        localStorage.setItem('age_confirmed', '1');
      },
      [access, refresh],
    );
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?create=1`);
    const form = page.getByTestId('create-character-form');
    await form.waitFor({ timeout: 20_000 });
    const photo = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#e879f9' } }).png().toBuffer();
    await page.getByTestId('photo-input').setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: photo });
    await form.locator('input[name=name]').fill('Juniper Vale');
    await form.locator('input[name=age]').fill('27');
    await form.locator('textarea[name=description]').fill('A botanist who names every plant in her greenhouse.');
    await form.locator('textarea[name=greeting]').fill('Mind the ferns — they bite. Kidding. Welcome!');
    await form.getByRole('button', { name: 'Create', exact: true }).click();

    await form.waitFor({ state: 'detached', timeout: 20_000 });
    const first = page.getByTestId('character-card').first();
    await expect.poll(() => first.locator('h3').innerText(), { timeout: 20_000 }).toContain('Juniper Vale');
    const avatar = first.locator('img');
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    await context.close();
  });
});
