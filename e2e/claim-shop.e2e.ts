// Issue 26 items 5 and 6, on a phone (390x844): a new account with a zero balance pays for a
// transform → the buy-desires modal offers the free daily claim first; one tap claims it and
// the transform goes on by itself. Another new account buys desires instead: through the
// sandbox checkout and back, then a reload, the photo, the chosen style and the rights tick are
// still there, and paying does not upload the photo again.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeTestPhoto } from '../apps/server/test/fixtures/transform-photo';
import { artifactsDir, readLocaleText, useBrowser } from './harness';

const browser = useBrowser();

/** A new account (sign-up through the API), signed in, its daily claim NOT taken: 0 desires. */
async function newMember(base: string) {
  const email = `claimshop_${randomUUID().slice(0, 8)}@example.test`;
  const password = 'correct horse battery';
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email.split('@')[0], email, password, age_confirmed: true }),
  });
  expect(reg.status).toBe(201);
  const login = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (await login.json()) as { access: string; refresh: string };
}

async function phonePage(tokens: { access: string; refresh: string }): Promise<Page> {
  const page = await browser.page({ viewport: 'phone', ageConfirmed: true });
  await page.context().addInitScript(
    ([access, refresh]) => {
      window.localStorage.setItem('access_token', access!);
      window.localStorage.setItem('refresh_token', refresh!);
    },
    [tokens.access, tokens.refresh],
  );
  return page;
}

async function balance(base: string, access: string): Promise<number> {
  const res = await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${access}` } });
  return ((await res.json()) as { num_tokens: number }).num_tokens;
}

async function photoFile(): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-')), 'me.jpg');
  fs.writeFileSync(file, await makeTestPhoto(480, 600));
  return file;
}

/** On /transform: a photo, the comic style, the rights tick, then "Transform". */
async function startTransform(page: Page, base: string) {
  await page.goto(`${base}/transform`);
  await page.getByTestId('transform-file').setInputFiles(await photoFile());
  await page.getByTestId('transform-photo').waitFor();
  await expect.poll(() => page.locator('[data-testid^="style-"] img').count(), { timeout: 30_000 }).toBe(8);
  await page.getByTestId('style-comic').click();
  await page.getByTestId('transform-rights').check();
  await page.getByTestId('transform-pay').click();
}

describe('the free 100 first, and nothing lost on the way to the shop (phone)', () => {
  it('zero balance: the shop offers the daily claim first; one tap claims it and the transform goes on', async () => {
    const base = browser.url();
    const user = await newMember(base);
    expect(await balance(base, user.access)).toBe(0);
    const page = await phonePage(user);
    await startTransform(page, base);

    const modal = page.getByTestId('desires-modal');
    await modal.waitFor();
    const offer = modal.getByTestId('claim-offer');
    await offer.getByText(readLocaleText('en', 'billing.claim_offer_transform')!).waitFor();
    // First: above the packs, in view on a phone without scrolling.
    const box = await offer.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(844);
    await page.screenshot({ path: path.join(artifactsDir, 'claim-offer-phone.png') });
    await offer.getByTestId('claim-offer-button').click();

    // No confirmation: the modal closes and the transform is made.
    await modal.waitFor({ state: 'detached' });
    await page.getByTestId('transform-result').waitFor({ timeout: 60_000 });
    expect(await balance(base, user.access)).toBe(95);
  });

  it('buying desires from /transform: the photo, the style and the tick survive the checkout and a reload', async () => {
    const base = browser.url();
    const user = await newMember(base);
    const page = await phonePage(user);
    let uploads = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/image_transform') uploads += 1;
    });
    await startTransform(page, base);
    const modal = page.getByTestId('desires-modal');
    await modal.getByTestId('claim-offer').waitFor();
    // The user buys instead of claiming.
    await modal.getByTestId('buy-pack_350').click();
    await page.waitForURL(/\/checkout\/sandbox\//);
    await page.getByRole('button', { name: readLocaleText('en', 'billing.sandbox_approve')! }).click();
    await page.waitForURL((url) => url.pathname === '/transform');
    // Already credited: one toast saying what was bought, not "may take up to 5 minutes".
    await page.getByText('+350 desires').first().waitFor();

    const kept = async () => {
      await page.getByTestId('transform-photo').waitFor();
      await expect.poll(() => page.getByTestId('style-comic').getAttribute('aria-checked')).toBe('true');
      expect(await page.getByTestId('transform-rights').isChecked()).toBe(true);
      await expect.poll(() => page.getByTestId('transform-pay').isEnabled()).toBe(true);
    };
    await kept();
    await page.screenshot({ path: path.join(artifactsDir, 'transform-kept-phone.png') });
    await page.reload();
    await kept();

    await page.getByTestId('transform-pay').click();
    await page.getByTestId('transform-result').waitFor({ timeout: 60_000 });
    expect(uploads).toBe(1);
    expect(await balance(base, user.access)).toBe(345);
  });
});
