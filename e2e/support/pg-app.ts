import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import postgres from 'postgres';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_FLAGS as CHROMIUM_ARGS, CHROMIUM_PATH as chromiumPath } from '../../bench/support/chromium.mjs';

/**
 * A built server of its own on a new PostgreSQL database, for journeys that must prepare
 * data the UI cannot (users with premium, characters in bulk) and sign a user's tokens with
 * the server's secret. The shared servers of `harness.ts` run on PGlite, which only their
 * own process can open.
 */
export interface PgApp {
  baseUrl: string;
  sql: postgres.Sql;
  /** Puts a file into the server's media storage (local, `DATA_DIR/media/<key>`). */
  putMedia(key: string, data: Buffer): void;
  /** Inserts a user (no password: they sign in through their tokens) and answers its id. */
  createUser(values?: { name?: string; age?: number; numTokens?: number; premium?: boolean }): Promise<string>;
  /** A browser context signed in as the user (tokens and the 18+ confirmation in localStorage). */
  signedInContext(
    browser: Browser,
    userId: string,
    viewport?: { width: number; height: number },
  ): Promise<BrowserContext>;
  log(): string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');
const ADMIN_URL = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

export async function startPgApp(env: Record<string, string> = {}): Promise<PgApp> {
  if (
    !fs.existsSync(path.join(root, 'apps/server/dist/server.js')) ||
    !fs.existsSync(path.join(root, 'apps/web/dist/index.html'))
  ) {
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
  const secret = `e2e-${randomBytes(22).toString('hex')}`;
  const dbName = `reverie_e2e_${randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-'));
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: withDatabase(ADMIN_URL, dbName),
      JWT_SECRET: secret,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));

  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await sql.end().catch(() => {});
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const until = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${output}`);
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) {
      server.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  const sql = postgres(withDatabase(ADMIN_URL, dbName), { max: 2, onnotice: () => {} });
  const key = new TextEncoder().encode(secret);
  // A session as a log-in makes it: a refresh token row of a new family, and an access token
  // that names that family (`sid`), so the server's session check accepts it.
  const startSession = async (userId: string) => {
    const sid = randomUUID();
    const refresh = `rt.e2e.${randomBytes(32).toString('base64url')}`;
    await sql`insert into refresh_tokens (user_id, family_id, token_hash, expires_at)
      values (${userId}, ${sid}, ${createHash('sha256').update(refresh).digest('hex')}, ${new Date(Date.now() + 30 * 86_400_000)})`;
    const access = await new SignJWT({ role: 'user', sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer('reverie')
      .setAudience('access')
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(key);
    return { access, refresh };
  };

  return {
    baseUrl,
    sql,
    putMedia(key, data) {
      const file = path.join(dataDir, 'media', key);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, data);
    },
    log: () => output,
    stop,
    async createUser({ name = 'E2E User', age = 30, numTokens = 0, premium = false } = {}) {
      const id = randomUUID();
      const suffix = id.slice(0, 8);
      await sql`insert into users (id, username, email, password_hash, name, age, is_email_confirmed)
        values (${id}, ${`e2e_${suffix}`}, ${`e2e_${suffix}@example.test`}, ${'!e2e'}, ${name}, ${age}, true)`;
      if (numTokens > 0) {
        await sql.begin(async (tx) => {
          await tx`insert into ledger_entries (user_id, amount, reason, idempotency_key)
                   values (${id}, ${numTokens}, 'adjustment', ${`e2e-start:${id}`})`;
          await tx`update users set num_tokens = num_tokens + ${numTokens} where id = ${id}`;
        });
      }
      if (premium) {
        await sql`insert into subscriptions (user_id, provider, provider_subscription_id, plan, status, current_period_end, state_at)
          values (${id}, 'sandbox', ${`e2e-${suffix}`}, 'monthly', 'active', ${new Date(Date.now() + 30 * 86_400_000)}, ${new Date()})`;
      }
      return id;
    },
    async signedInContext(browser, userId, viewport = { width: 1280, height: 800 }) {
      const { access, refresh } = await startSession(userId);
      const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
      context.setDefaultTimeout(15_000);
      await context.addInitScript(
        ([a, r]) => {
          localStorage.setItem('access_token', a!);
          localStorage.setItem('refresh_token', r!);
          localStorage.setItem('age_confirmed', '1');
        },
        [access, refresh],
      );
      return context;
    },
  };
}
