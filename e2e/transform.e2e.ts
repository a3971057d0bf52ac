// Journey of the image style transform (issue 16): a signed-in user with desires opens
// /transform, uploads a photo, sees the live previews, picks a style, confirms the rights,
// pays, watches it being made and sees the result beside the original; the balance dropped by
// 5 and the transform is in the gallery, where it is deleted. On a phone and on a desktop.
// Also: /undress lands on /transform without a warning in the console.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeTestPhoto } from '../apps/server/test/fixtures/transform-photo';
import { readLocaleText, useBrowser, type ViewportName } from './harness';

const browser = useBrowser();

/** A new account (sign-up through the API), signed in, with the daily 100 desires claimed. */
async function member(base: string) {
  const email = `transform_${randomUUID().slice(0, 8)}@example.test`;
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
  const { access, refresh } = (await login.json()) as { access: string; refresh: string };
  const claim = await fetch(`${base}/api/profile/claim_desires`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}` },
  });
  expect(claim.status).toBe(200);
  const { num_tokens } = (await claim.json()) as { num_tokens: number };
  return { access, refresh, balance: num_tokens };
}

async function signedInPage(viewport: ViewportName, tokens: { access: string; refresh: string }): Promise<Page> {
  const page = await browser.page({ viewport, ageConfirmed: true });
  await page.context().addInitScript(
    ([access, refresh]) => {
      window.localStorage.setItem('access_token', access!);
      window.localStorage.setItem('refresh_token', refresh!);
    },
    [tokens.access, tokens.refresh],
  );
  return page;
}

const balanceText = (page: Page) => page.getByTestId('balance').first().innerText();

describe('the style transform', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`on a ${viewport}: upload, previews, a style, rights, pay 5, the result beside the original, the gallery`, async () => {
      const base = browser.url();
      const user = await member(base);
      const page = await signedInPage(viewport, user);
      const photoFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-')), 'me.jpg');
      fs.writeFileSync(photoFile, await makeTestPhoto(480, 600));

      await page.goto(`${base}/transform`);
      await page.getByRole('heading', { name: readLocaleText('en', 'pages.transform_title')! }).waitFor();
      if (viewport === 'desktop') await expect.poll(() => balanceText(page)).toContain(String(user.balance));

      await page.getByTestId('transform-file').setInputFiles(photoFile);
      await page.getByTestId('transform-photo').waitFor();
      // Live previews: every style tile shows the photo in that style.
      await expect.poll(() => page.locator('[data-testid^="style-"] img').count(), { timeout: 30_000 }).toBe(8);
      await page.getByTestId('style-comic').click();
      expect(await page.getByTestId('style-comic').getAttribute('aria-checked')).toBe('true');

      // The rights attestation is required.
      await page.getByTestId('transform-pay').click();
      await page.getByText(readLocaleText('en', 'transform.rights_required')!).waitFor();
      await page.getByTestId('transform-rights').check();
      await page.getByTestId('transform-pay').click();

      const result = page.getByTestId('transform-result');
      await result.waitFor({ timeout: 60_000 });
      await expect
        .poll(() =>
          page.getByTestId('transform-result-image').evaluate((img) => (img as HTMLImageElement).naturalWidth),
        )
        .toBeGreaterThan(0);
      await result.getByText(readLocaleText('en', 'transform.original')!, { exact: true }).waitFor();
      const download = result.getByRole('link', { name: readLocaleText('en', 'transform.download')! });
      expect(await download.getAttribute('download')).toBe('reverie-comic.webp');

      // The balance dropped by 5, on the server and on the page.
      const profile = await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${user.access}` } });
      expect(((await profile.json()) as { num_tokens: number }).num_tokens).toBe(user.balance - 5);
      if (viewport === 'desktop') await expect.poll(() => balanceText(page)).toContain(String(user.balance - 5));

      // The gallery has it; deleting it empties the gallery.
      const items = page.getByTestId('transform-gallery-item');
      await expect.poll(() => items.count()).toBe(1);
      await items.first().getByTestId('transform-delete').click();
      await page.getByTestId('transform-delete-confirm').click();
      await page.getByText(readLocaleText('en', 'transform.gallery_empty')!).waitFor();
    });
  }

  it('asks a guest to sign up or log in, and comes back to /transform', async () => {
    const page = await browser.page({ viewport: 'phone', ageConfirmed: true });
    await page.goto(`${browser.url()}/transform`);
    await page.getByTestId('transform-choose').click();
    await page.waitForURL((url) => url.searchParams.has('signup') || url.searchParams.has('login'));
    expect(new URL(page.url()).searchParams.get('next')).toBe('/transform');
  });

  it('/undress redirects to /transform with nothing in the console', async () => {
    const page = await browser.page({ ageConfirmed: true });
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') messages.push(message.text());
    });
    await page.goto(`${browser.url()}/undress`);
    await page.waitForURL((url) => url.pathname === '/transform');
    await page.getByRole('heading', { name: readLocaleText('en', 'pages.transform_title')! }).waitFor();
    expect(messages).toEqual([]);
  });
});
