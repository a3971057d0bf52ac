// Journeys of a signed-in user through payments (issues 6 and 11), on the sandbox provider: buy
// the 350 desires offer and subscribe to Premium monthly, each through the sandbox checkout page
// (a page of the web app, for the signed-in payer only), back on the page the purchase started
// from; then cancel the subscription in Settings, see when Premium ends, and resume it.
//
// Accounts (sign-up, GET /api/profile) come from another branch. When POST /api/register is
// missing, the user is inserted straight into a PostgreSQL database made for this file and
// given a signed access token; when GET /api/profile is missing, the browser's calls to it
// are answered from that database (the billing part of the profile, as getBillingProfile
// will add it to the real one).
import { randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocaleText, useBrowser } from './harness';
import { startServer, type RunningServer } from './support/app-server.mjs';

const browser = useBrowser();
const ADMIN_URL = process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = randomBytes(32).toString('hex');
const dbName = `reverie_e2e_billing_${randomBytes(4).toString('hex')}`;

let server: RunningServer;
let admin: postgres.Sql;
let sql: postgres.Sql;

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

beforeAll(async () => {
  admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = withDatabase(ADMIN_URL, dbName);
  sql = postgres(url, { max: 2, onnotice: () => {} });
  server = await startServer({ env: { DATABASE_URL: url, JWT_SECRET, SEED_ON_START: 'false' } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await sql?.end();
  await admin?.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin?.end();
});

/** A signed-in user with a starting balance (given through the ledger, as every balance). */
async function signedInUser(startBalance: number) {
  const base = server.url;
  const email = `buyer_${randomUUID().slice(0, 8)}@example.test`;
  const password = 'correct horse battery';
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email.split('@')[0], email, password, age_confirmed: true }),
  });
  expect(reg.status).toBe(201);
  const userId = ((await reg.json()) as { id: string }).id;
  const login = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { access, refresh } = (await login.json()) as { access: string; refresh: string };
  if (startBalance > 0) {
    await sql.begin(async (tx) => {
      await tx`insert into ledger_entries (user_id, amount, reason, idempotency_key)
               values (${userId}, ${startBalance}, 'adjustment', ${`e2e:${userId}`})`;
      await tx`update users set num_tokens = num_tokens + ${startBalance} where id = ${userId}`;
    });
  }
  return { userId, access, refresh };
}

/** Opens the app signed in; answers GET /api/profile from the database when it is missing. */
async function openSignedIn(user: { userId: string; access: string; refresh: string }): Promise<Page> {
  const page = await browser.page({ ageConfirmed: true });
  const profileExists = (await fetch(`${server.url}/api/profile`)).status !== 404;
  if (!profileExists) {
    await page.route(`${server.url}/api/profile`, async (route) => {
      const [u] = await sql<{ id: string; name: string; email: string; num_tokens: number }[]>`
        select id, name, email, num_tokens from users where id = ${user.userId}`;
      const [sub] = await sql<
        { plan: 'monthly' | 'annual'; status: string; trial_ends_at: Date | null; current_period_end: Date }[]
      >`
        select plan, status, trial_ends_at, current_period_end from subscriptions
        where user_id = ${user.userId} and current_period_end > now() order by current_period_end desc limit 1`;
      await route.fulfill({
        json: {
          id: u!.id,
          name: u!.name,
          age: null,
          email: u!.email,
          is_email_confirmed: true,
          locale: 'en',
          role: 'user',
          num_tokens: u!.num_tokens,
          has_subscription: Boolean(sub),
          subscription: sub
            ? {
                plan: sub.plan,
                status: sub.status,
                trial_ends_at: sub.trial_ends_at?.toISOString() ?? null,
                renews_at: sub.current_period_end.toISOString(),
              }
            : null,
          next_claim_at: null,
        },
      });
    });
  }
  await page.context().addInitScript(
    ([access, refresh]) => {
      window.localStorage.setItem('access_token', access!);
      window.localStorage.setItem('refresh_token', refresh!);
    },
    [user.access, user.refresh],
  );
  await page.goto(`${server.url}/`);
  await page.getByTestId('balance').waitFor();
  return page;
}

/** Approves the sandbox checkout: back where it started, one toast saying what was bought (already credited). */
async function approveSandboxCheckout(page: Page, bought: string, backTo = '/') {
  await page.waitForURL(/\/checkout\/sandbox\//);
  await page.getByRole('button', { name: readLocaleText('en', 'billing.sandbox_approve')! }).click();
  await page.waitForURL((url) => url.pathname === backTo);
  await page.getByText(bought).first().waitFor();
  expect(await page.getByText(readLocaleText('en', 'errors.purchase_success')!).count()).toBe(0);
}

describe('buying desires', () => {
  it('the 350 offer through the sandbox checkout adds 350 to the balance, shown with a space', async () => {
    const user = await signedInUser(900);
    const page = await openSignedIn(user);
    await page.getByTestId('balance').click();
    const modal = page.getByTestId('desires-modal');
    await modal.waitFor();
    await modal.getByText('60% off').waitFor();
    await modal.getByText('$4.99').waitFor();
    await modal.getByText('1,000 desires').waitFor();
    await modal.getByText('$24.99').waitFor();
    await modal.getByTestId('buy-pack_350').click();
    await approveSandboxCheckout(page, '+350 desires');
    await expect.poll(() => page.getByTestId('balance').innerText(), { timeout: 15_000 }).toContain('1,250');
    const [row] = await sql<{ n: number }[]>`select num_tokens as n from users where id = ${user.userId}`;
    expect(row!.n).toBe(1250);
  });

  it('a declined checkout says "Payment cancelled", back on the page it started from, and credits nothing', async () => {
    const user = await signedInUser(0);
    const page = await openSignedIn(user);
    await page.goto(`${server.url}/settings?pw=1&from=counter`);
    await page.getByTestId('buy-pack_1000').click();
    await page.waitForURL(/\/checkout\/sandbox\/[0-9a-f-]+\?return=%2Fsettings$/);
    await page.getByRole('button', { name: readLocaleText('en', 'billing.sandbox_decline')! }).click();
    await page.getByText(readLocaleText('en', 'billing.purchase_cancelled')!).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');
    const [row] = await sql<{ n: number }[]>`select num_tokens as n from users where id = ${user.userId}`;
    expect(row!.n).toBe(0);
  });
});

describe('subscribing', () => {
  it('monthly Premium through the sandbox: Get Premium disappears and 100 desires arrive', async () => {
    const user = await signedInUser(0);
    const page = await openSignedIn(user);
    await page.getByTestId('get-premium').click();
    const modal = page.getByTestId('premium-modal');
    await modal.waitFor();
    await modal.getByText('3-day free trial').waitFor();
    await modal.getByTestId('plan-monthly').click();
    await modal.getByTestId('start-trial').click();
    await approveSandboxCheckout(page, 'Premium is active');
    await page.getByTestId('get-premium').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByTestId('balance').innerText(), { timeout: 15_000 }).toContain('100');
  });

  it('a subscriber cancels in Settings, sees when Premium ends, then resumes', async () => {
    const user = await signedInUser(0);
    const page = await openSignedIn(user);
    await page.goto(`${server.url}/?premium=1&from=get-premium`);
    const modal = page.getByTestId('premium-modal');
    await modal.getByTestId('plan-monthly').click();
    await expect
      .poll(() => modal.getByTestId('trial-terms').innerText())
      .toMatch(/^\$0 today, then \$12\.99\/month from /);
    await modal.getByTestId('start-trial').click();
    await page.waitForURL(/\/checkout\/sandbox\//);
    await page
      .getByTestId('sandbox-trial-terms')
      .getByText(/^\$0 today, then \$12\.99\/month from /)
      .waitFor();
    await approveSandboxCheckout(page, 'Premium is active');

    await page.goto(`${server.url}/settings`);
    const section = page.getByTestId('manage-subscription');
    await section.getByTestId('subscription-status').getByText('Free trial').waitFor();
    await section.getByTestId('cancel-subscription').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/^Cancel the renewal\? Premium stays until /).waitFor();
    await dialog.getByTestId('confirm-cancel-subscription').click();
    await section
      .getByTestId('subscription-when')
      .getByText(/^Premium ends on /)
      .waitFor();
    await section.getByTestId('subscription-status').getByText('Cancelled').waitFor();
    const [row] = await sql<{ status: string; cancel_at_period_end: boolean }[]>`
      select status, cancel_at_period_end from subscriptions where user_id = ${user.userId}`;
    expect(row).toEqual({ status: 'cancelled', cancel_at_period_end: true });

    await section.getByTestId('resume-subscription').click();
    await section.getByTestId('subscription-status').getByText('Free trial').waitFor();
    await section.getByTestId('cancel-subscription').waitFor();
    const [after] = await sql<{ status: string; cancel_at_period_end: boolean }[]>`
      select status, cancel_at_period_end from subscriptions where user_id = ${user.userId}`;
    expect(after).toEqual({ status: 'trialing', cancel_at_period_end: false });
  });
});
