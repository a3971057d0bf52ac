// Journeys of a guest through the web shell (issue 2): the age gate, the language picker,
// the mobile bars, the login modal for members-only pages, the error page, the legacy
// /undress address and the legal PDFs.
import { describe, expect, it } from 'vitest';
import { readLocaleText, useBrowser } from './harness';
import type { Page } from 'playwright-core';

const browser = useBrowser();

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('a first visit', () => {
  it('shows the 18+ age gate until the guest confirms, and remembers the answer', async () => {
    const page = await browser.page();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);

    const gate = page.getByTestId('age-gate');
    await gate.waitFor();
    // Nothing of the app shows behind the gate.
    expect(await page.getByTestId('footer').count()).toBe(0);

    await gate.getByRole('button', { name: 'I am 18 or older' }).click();
    await gate.waitFor({ state: 'detached' });
    await page.getByTestId('news-banner').waitFor();
    await page.getByTestId('footer').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('age_confirmed'))).toBe('1');

    await page.reload();
    await page.getByTestId('footer').waitFor();
    expect(await page.getByTestId('age-gate').count()).toBe(0);
  });
});

describe('the language picker', () => {
  it('switches the interface to Deutsch, which stays after a reload', async () => {
    const englishExplore = readLocaleText('en', 'nav.explore');
    const germanExplore = readLocaleText('de', 'nav.explore');
    expect(englishExplore, 'en.json nav.explore').toBe('Explore');
    expect(germanExplore, 'packages/shared/src/locales/de.json has no nav.explore').toBeTypeOf('string');
    expect(germanExplore, 'the German nav.explore is still the English text').not.toBe(englishExplore);

    const page = await browser.page({ ageConfirmed: true });
    await page.goto('/');
    const exploreTab = page.locator('header nav a[href="/"]');
    await exploreTab.waitFor();
    expect((await exploreTab.innerText()).trim()).toBe(englishExplore);
    expect(await htmlLang(page)).toBe('en');

    await page.getByTestId('language-picker').first().click();
    const items = page.getByRole('menuitem');
    await items.first().waitFor();
    expect(await items.allInnerTexts()).toEqual(['English', 'Deutsch', 'Español', '中文', 'Русский']);
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();

    await expect.poll(() => htmlLang(page)).toBe('de');
    await expect.poll(async () => (await exploreTab.innerText()).trim()).toBe(germanExplore);
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('de');

    await page.reload();
    await exploreTab.waitFor();
    await expect.poll(async () => (await exploreTab.innerText()).trim()).toBe(germanExplore);
    expect(await htmlLang(page)).toBe('de');
  });

  it('marks the page as Chinese with the zh-CN language tag', async () => {
    const page = await browser.page({ ageConfirmed: true });
    await page.goto('/');
    await page.getByTestId('language-picker').first().click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await expect.poll(() => htmlLang(page)).toBe('zh-CN');
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('ch');
  });
});

describe('on a phone (390×844)', () => {
  it('shows the bottom tab bar, and the burger opens the side panel', async () => {
    const page = await browser.page({ viewport: 'phone', ageConfirmed: true });
    await page.goto('/');
    await page.getByTestId('tab-bar').waitFor();
    expect(await page.getByTestId('side-panel').count()).toBe(0);

    const box = await page.getByTestId('tab-bar').boundingBox();
    expect(box, 'tab bar position').not.toBeNull();
    expect(Math.round(box!.y + box!.height)).toBe(844);
    expect(Math.round(box!.width)).toBe(390);

    await page.getByTestId('burger').click();
    const panel = page.getByTestId('side-panel');
    await panel.waitFor();
    // Docked to the left edge, within the screen (polled: the panel may slide in).
    await expect.poll(async () => (await panel.boundingBox())?.x).toBe(0);
    expect((await panel.boundingBox())!.width).toBeLessThanOrEqual(390);

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('hides the tab bar in the immersive audio page', async () => {
    const page = await browser.page({ viewport: 'phone', ageConfirmed: true });
    await page.goto('/audio');
    await page.locator('main#main').waitFor();
    // Give the lazy page a moment to render, then make sure no bar came with it.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('tab-bar').count()).toBe(0);
    expect(await page.getByTestId('footer').count()).toBe(0);
  });

  it('has neither burger nor tab bar on a desktop', async () => {
    const page = await browser.page({ viewport: 'desktop', ageConfirmed: true });
    await page.goto('/');
    await page.getByTestId('footer').waitFor();
    expect(await page.getByTestId('burger').isVisible()).toBe(false);
    expect(await page.getByTestId('tab-bar').isVisible()).toBe(false);
  });
});

describe('members-only pages', () => {
  it('sends a guest from /chat to sign-up (log-in on a device used before), remembering where to go next', async () => {
    const page = await browser.page({ ageConfirmed: true });
    await page.goto('/chat');
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('signup') === '1');
    expect(new URL(page.url()).search).toBe('?signup=1&next=%2Fchat');
    await page.getByRole('dialog', { name: 'Create account' }).waitFor();

    await page.evaluate(() => localStorage.setItem('authorized_once', '1'));
    await page.goto('/chat');
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('login') === '1');
    expect(new URL(page.url()).search).toBe('?login=1&next=%2Fchat');
    await page.getByRole('dialog', { name: 'Log in' }).waitFor();
  });
});

describe('the error page', () => {
  it('answers an unknown address with 404 and Page Not Found', async () => {
    const page = await browser.page({ ageConfirmed: true });
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    const errorPage = page.getByTestId('error-page');
    await errorPage.waitFor();
    const text = await errorPage.innerText();
    expect(text).toContain('Page Not Found');
    expect(text).toContain('Page not found: /no/such/page');
    expect(await page.title()).toContain('Page Not Found');
  });
});

describe('addresses', () => {
  it('redirects the legacy /undress to /transform, keeping the query', async () => {
    const page = await browser.page({ ageConfirmed: true });
    await page.goto('/undress?ref=mail');
    await page.waitForURL((url) => url.pathname === '/transform');
    expect(new URL(page.url()).search).toBe('?ref=mail');
    expect(await page.getByTestId('error-page').count()).toBe(0);
  });

  it.each(['/terms.pdf', '/privacy.pdf'])('serves %s as a PDF', async (pdfPath) => {
    const response = await fetch(new URL(pdfPath, browser.url()));
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status, body.subarray(0, 200).toString()).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
