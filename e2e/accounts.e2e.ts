import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../bench/support/chromium.mjs';

/**
 * The account journey with a real SMTP server inside the test: sign up → automatic log-in →
 * follow the verification link from the received mail → log out → reset the password through
 * the mailed link → log in with the new password. Self-contained (builds what is missing).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ReceivedMail {
  to: string[];
  raw: string;
  text: string;
}

const inbox: ReceivedMail[] = [];
let smtp: SMTPServer;
let server: ChildProcess;
let context: BrowserContext;
let baseUrl = '';
let dataDir = '';
let profileDir = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Decodes the parts of a MIME message (quoted-printable or base64) into one text. */
function decodeMime(raw: string): string {
  const chunks: string[] = [];
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split).toLowerCase();
    const body = part.slice(split).trim();
    if (headers.includes('content-transfer-encoding: base64')) {
      chunks.push(Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8'));
    } else if (headers.includes('content-transfer-encoding: quoted-printable')) {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      chunks.push(Buffer.from(bytes, 'latin1').toString('utf8'));
    } else {
      chunks.push(body);
    }
  }
  return chunks.join('\n');
}

async function waitForMail(to: string, match: RegExp, after = 0): Promise<{ mail: ReceivedMail; link: string }> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const mail of inbox.slice(after)) {
      const found = mail.to.includes(to) ? match.exec(mail.text) : null;
      if (found) return { mail, link: found[0] };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} matching ${match}`);
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

const token = (page: Page) => page.evaluate(() => window.localStorage.getItem('access_token'));

beforeAll(async () => {
  if (
    !fs.existsSync(path.join(root, 'apps/server/dist/server.js')) ||
    !fs.existsSync(path.join(root, 'apps/web/dist/index.html'))
  ) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeMime(raw) });
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-accounts-'));
  server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(baseUrl);

  profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 390, height: 844 },
  });
});

afterAll(async () => {
  await context?.close();
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  for (const dir of [dataDir, profileDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('account journey', () => {
  it('sign up → verify by mail → log out → reset the password by mail → log in', async () => {
    const page = await context.newPage();
    const email = `e2e_${Date.now()}@example.test`;

    await page.goto(`${baseUrl}/`);
    await page.getByRole('button', { name: 'I am 18 or older' }).click();

    // Sign-up with bad input first: the specification's messages, word for word.
    await page.goto(`${baseUrl}/?signup=1`);
    const signup = page.getByTestId('signup-form');
    await signup.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => signup.locator('[data-field-error]').allInnerTexts())
      .toEqual([
        'Please enter your username',
        'Please enter your email',
        'Please enter your password',
        'Please confirm that you are over 18',
      ]);
    await signup.getByLabel('Username').fill('a'.repeat(101));
    await signup.getByLabel('E-mail').fill('not-an-email');
    await signup.getByLabel('Password', { exact: true }).fill('12345');
    await signup.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => signup.locator('[data-field-error]').allInnerTexts())
      .toContain('Username must contain no more than 100 characters');
    expect(await signup.locator('[data-field-error]').allInnerTexts()).toContain('Enter a valid email address');
    expect(await signup.locator('[data-field-error]').allInnerTexts()).toContain(
      'Password must be 6 or more characters',
    );

    await signup.getByLabel('Username').fill('Journey');
    await signup.getByLabel('E-mail').fill(email);
    await signup.getByLabel('Password', { exact: true }).fill('first-password');
    await signup.getByRole('checkbox').check();
    await signup.getByRole('button', { name: 'Create account' }).click();

    // Automatic log-in, then the onboarding.
    await page.waitForURL(`${baseUrl}/welcome`);
    expect(await token(page)).toBeTruthy();
    await expect.poll(() => page.getByTestId('welcome').getAttribute('data-step')).toBe('1');

    // The verification link from the received mail.
    const verify = await waitForMail(email, /http:\/\/127\.0\.0\.1:\d+\/verify\?code=[\w-]+/);
    expect(verify.mail.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/i);
    await page.goto(verify.link);
    await expect
      .poll(() => page.getByTestId('verify-step').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('done');

    await page.goto(`${baseUrl}/settings`);
    await expect.poll(() => page.getByTestId('email-status').innerText()).toBe('Confirmed');

    // Log out.
    await page.getByTestId('logout').click();
    await page.waitForURL(`${baseUrl}/`);
    expect(await token(page)).toBeNull();
    expect(await page.evaluate(() => window.localStorage.getItem('refresh_token'))).toBeNull();

    // Reset the password through the mailed link.
    const before = inbox.length;
    await page.goto(`${baseUrl}/password`);
    await page.getByTestId('reset-request-form').getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByTestId('reset-sent').waitFor();
    const reset = await waitForMail(email, /http:\/\/127\.0\.0\.1:\d+\/password\?token=[\w-]+/, before);
    await page.goto(reset.link);
    const form = page.getByTestId('reset-set-form');
    await form.getByLabel('New password').fill('second-password');
    await form.getByLabel('Repeat the password').fill('different');
    await form.getByRole('button', { name: 'Save password' }).click();
    await expect.poll(() => form.locator('[data-field-error]').allInnerTexts()).toEqual(['Passwords do not match']);
    await form.getByLabel('Repeat the password').fill('second-password');
    await form.getByRole('button', { name: 'Save password' }).click();
    await page.getByTestId('reset-done').waitFor();
    await page.getByTestId('reset-done').getByRole('button', { name: 'Log in' }).click();

    // Log in with the old password fails, with the new one works.
    const login = page.getByTestId('login-form');
    await login.getByLabel('E-mail').fill(email);
    await login.getByLabel('Password', { exact: true }).fill('first-password');
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => login.locator('[data-field-error]').allInnerTexts()).toEqual(['Wrong e-mail or password']);
    await login.getByLabel('Password', { exact: true }).fill('second-password');
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => token(page)).toBeTruthy();
    await login.waitFor({ state: 'detached' });
    await page.goto(`${baseUrl}/settings`);
    await expect.poll(() => page.getByTestId('email-status').innerText()).toBe('Confirmed');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Profile');
  });
});
