// Editions (APP_NAME): the same build serves Reverie and Amoura; the server writes the
// edition into <html data-edition> and the page title, and the shell brands itself from it.
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';

const browser = useBrowser();

describe('editions', () => {
  it('renders the Amoura edition when the server runs with APP_NAME=amoura', async () => {
    const page = await browser.page({ edition: 'amoura' });
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const gate = page.getByTestId('age-gate');
    await gate.waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.edition)).toBe('amoura');
    expect(await page.title()).toContain('Amoura');
    expect(await gate.innerText()).toContain('Amoura');

    await gate.getByRole('button', { name: 'I am 18 or older' }).click();
    const footer = page.getByTestId('footer');
    await footer.waitFor();
    expect(await footer.innerText()).toContain('support@amoura.app');
    expect(await page.title()).toContain('Amoura');
  });

  it('renders the Reverie edition by default', async () => {
    const page = await browser.page({ edition: 'reverie', ageConfirmed: true });
    await page.goto('/');
    await page.getByTestId('footer').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.edition)).toBe('reverie');
    expect(await page.title()).toContain('Reverie');
    expect(await page.title()).not.toContain('Amoura');
  });
});
