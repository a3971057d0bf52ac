import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, readLocaleText, useChatJourney } from './harness';

/**
 * Issue 13, part B: a visitor who types to a character is offered sign-up (not "Welcome
 * back!"), signs up, lands back in that chat (not on /welcome) and the message they typed is
 * sent — once — and answered; it survives a reload while the sign-up form is open. An
 * unknown path answers HTTP 404 with the site's navigation.
 */
const REPLY = 'Jazz, always jazz. Come sit with me and I will play you something.';

const journey = useChatJourney({
  behaviour: { mode: 'slow', delayMs: 60, text: REPLY },
  character: {
    slug: 'nora-e2e',
    name: 'Nora',
    age: 27,
    description: 'A pianist in a late-night bar.',
    greeting: 'Hey there. Request a song?',
  },
});

/** A picture of the page in e2e/artifacts/ (for a person to look at; not compared). */
async function snapshot(page: Page, name: string) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `signup-from-chat-${name}.png`) });
}

async function visitorPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await journey.browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(20_000);
  // A returning guest: the 18+ gate was confirmed, but nobody ever logged in on this device.
  await context.addInitScript(() => {
    if (!localStorage.getItem('age_confirmed')) localStorage.setItem('age_confirmed', '1');
  });
  return context.newPage();
}

describe('sign-up from where the visitor is', () => {
  it('types to a character → offered sign-up → signs up → back in the chat, the message sent once and answered', async () => {
    const page = await visitorPage({ width: 390, height: 844 });
    await page.goto(`${journey.app.baseUrl}/nora-e2e`);
    await expect.poll(() => page.getByTestId('greeting').innerText(), { timeout: 15_000 }).toContain('Request a song?');
    const text = 'What is your favourite song to play at midnight?';
    await page.getByTestId('composer').locator('textarea').fill(text);
    await page.getByTestId('send-button').click();

    // Sign-up is offered (with log-in one tap away), not "Log in — Welcome back!".
    const signup = page.getByTestId('signup-form');
    await signup.waitFor();
    expect(await page.getByText(readLocaleText('en', 'auth.login_subtitle')!).count()).toBe(0);
    expect(await page.getByText(readLocaleText('en', 'auth.signup_subtitle_chat')!).count()).toBe(1);
    expect(await signup.getByRole('button', { name: 'Log in' }).count()).toBe(1);
    await snapshot(page, 'offered-signup-390');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/nora-e2e');
    expect(url.searchParams.get('next')).toBe('/nora-e2e');

    // A reload with the form open keeps what they typed.
    await page.reload();
    await page.getByTestId('signup-form').waitFor();
    expect(await page.getByTestId('composer').locator('textarea').inputValue()).toBe(text);

    const email = `visitor-${Date.now()}@example.test`;
    const form = page.getByTestId('signup-form');
    await form.getByLabel('Username').fill('NightOwl');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('visitor-password');
    await form.locator('input[name=age_confirmed]').check();
    await form.getByRole('button', { name: 'Create account' }).click();
    await form.waitFor({ state: 'detached' });

    // Back in that chat, not on /welcome; the message was sent and is answered.
    await page.getByTestId('chat-view').waitFor();
    expect(new URL(page.url()).pathname).toBe('/nora-e2e');
    await expect.poll(() => page.getByTestId('message-user').last().innerText()).toContain(text);
    await expect.poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 30_000 }).toBe(REPLY);
    expect(await page.getByTestId('composer').locator('textarea').inputValue()).toBe('');
    await snapshot(page, 'answered-390');

    // Sent once, never twice — not even after a reload.
    await page.reload();
    await expect.poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 20_000 }).toBe(REPLY);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await page.getByTestId('message-user').count()).toBe(1);
    const rows = await journey.app.sql`
      select m.text from messages m join chats c on c.id = m.chat_id join users u on u.id = c.user_id
      where lower(u.email) = ${email} and m.role = 'user'`;
    expect(rows.map((r) => r.text)).toEqual([text]);
    await page.context().close();
  });

  it('someone who logged in before on this device is offered log-in; afterwards they are back in the chat', async () => {
    const email = `returning-${Date.now()}@example.test`;
    const registered = await fetch(`${journey.app.baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'Returning', email, password: 'returning-pass', age_confirmed: true }),
    });
    expect(registered.status).toBe(201);
    const page = await visitorPage({ width: 1280, height: 800 });
    await page.addInitScript(() => localStorage.setItem('authorized_once', '1'));
    await page.goto(`${journey.app.baseUrl}/nora-e2e`);
    await page.getByTestId('composer').locator('textarea').fill('Play me something slow.');
    await page.getByTestId('send-button').click();
    const login = page.getByTestId('login-form');
    await login.waitFor();
    await login.getByLabel('E-mail').fill(email);
    await login.getByLabel('Password', { exact: true }).fill('returning-pass');
    await login.getByRole('button', { name: 'Log in' }).click();
    await login.waitFor({ state: 'detached' });
    await page.getByTestId('chat-view').waitFor();
    expect(new URL(page.url()).pathname).toBe('/nora-e2e');
    await expect.poll(() => page.getByTestId('message-user').last().innerText()).toContain('Play me something slow.');
    await expect.poll(() => page.getByTestId('message-text').last().innerText(), { timeout: 30_000 }).toBe(REPLY);
    await page.context().close();
  });
});

describe('a real 404', () => {
  it('an unknown path answers HTTP 404 and shows the page-not-found page with the navigation', async () => {
    for (const viewport of [
      // The phone's tab bar; the desktop's top bar with its links.
      { width: 390, height: 844, nav: '[data-testid="tab-bar"]' },
      { width: 1280, height: 800, nav: 'header nav' },
    ]) {
      const page = await visitorPage(viewport);
      const response = await page.goto(`${journey.app.baseUrl}/no-such-character-xyz`);
      expect(response?.status()).toBe(404);
      const notFound = page.getByTestId('error-page');
      await notFound.waitFor();
      expect(await notFound.getAttribute('data-status')).toBe('404');
      expect(await page.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(1);
      await page.locator(viewport.nav).waitFor({ state: 'visible' });
      expect(await page.getByRole('link', { name: readLocaleText('en', 'errors.go_home')! }).isVisible()).toBe(true);
      await snapshot(page, `not-found-${viewport.width}`);
      expect(await page.title()).toMatch(/^Page Not Found — /);
      // A real character is still 200 with its own title.
      const real = await page.goto(`${journey.app.baseUrl}/nora-e2e`);
      expect(real?.status()).toBe(200);
      expect(await page.title()).toContain('Nora');
      await page.context().close();
    }
  });
});
