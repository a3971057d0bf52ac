import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Plans, Profile, Subscription } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { AlertStack } from '../../../components/ui/alerts';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { formatDate } from '../format';
import { ManageSubscription } from './manage-subscription';
import DesiresModal from './desires-modal';
import PremiumModal from './premium-modal';
import { SandboxCheckout } from './sandbox-checkout';
import { seedProfile, testQueryClient } from '../../../test/profile';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderWith(element: React.ReactNode, path = '/') {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
      <AlertStack />
    </AppProviders>,
  );
  return router;
}

const profile = (overrides: Partial<Profile> = {}): Profile => ({
  id: 'u1',
  name: 'Ann',
  age: null,
  email: 'ann@example.test',
  is_email_confirmed: true,
  has_subscription: false,
  num_tokens: 0,
  locale: 'en',
  role: 'user',
  subscription: null,
  next_claim_at: null,
  ...overrides,
});

const plans = (overrides: Partial<Plans> = {}): Plans => ({
  currency: 'usd',
  subscriptions: [
    { id: 'monthly', amount_cents: 1299, interval: 'month', trial_days: 3, grant_desires: 100, daily_desires: 100 },
    { id: 'annual', amount_cents: 6999, interval: 'year', trial_days: 3, grant_desires: 100, daily_desires: 100 },
  ],
  packs: [
    { id: 'pack_350', desires: 350, amount_cents: 199, old_amount_cents: 499, discount_percent: 60, is_offer: true },
    {
      id: 'pack_1000',
      desires: 1000,
      amount_cents: 999,
      old_amount_cents: null,
      discount_percent: null,
      is_offer: false,
    },
  ],
  daily_claim: { amount: 100, interval_hours: 24 },
  trial_available: true,
  payments_enabled: true,
  card_enabled: true,
  crypto_enabled: true,
  ...overrides,
});

const modalProps = { onClose: () => {}, from: null, next: null, switchTo: () => {}, requireAuth: () => {} };
const pathOf = (input: RequestInfo | URL) =>
  new URL(String(input instanceof Request ? input.url : input), 'http://x').pathname;
const methodOf = (input: RequestInfo | URL, init?: RequestInit) =>
  init?.method ?? (input instanceof Request ? input.method : 'GET');

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('Settings → Manage subscription', () => {
  it('shows plan, status and dates; Cancel asks first, then shows the end date; Resume undoes it', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ has_subscription: true }));
    const renews = new Date(Date.now() + 33 * 86400_000).toISOString();
    const trialEnds = new Date(Date.now() + 3 * 86400_000).toISOString();
    let state: Subscription = {
      plan: 'monthly',
      status: 'trialing',
      trial_ends_at: trialEnds,
      renews_at: renews,
      ends_at: null,
      provider: 'sandbox',
      can_resume: false,
    };
    const calls: string[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = pathOf(input);
      calls.push(`${methodOf(input, init)} ${path}`);
      if (path === '/api/subscription/cancel_stripe/') {
        // Cancelled in the trial: premium ends with the trial.
        state = { ...state, status: 'cancelled', renews_at: null, ends_at: trialEnds, can_resume: true };
        return json({ status: 'cancelled', ends_at: trialEnds });
      }
      if (path === '/api/subscription/resume') {
        state = { ...state, status: 'trialing', renews_at: renews, ends_at: null, can_resume: false };
        return json(state);
      }
      if (path === '/api/subscription') return json(state);
      return json(profile({ has_subscription: true }));
    };
    renderWith(<ManageSubscription />, '/settings');
    expect((await screen.findByTestId('subscription-plan')).textContent).toBe('Premium (monthly)');
    expect(screen.getByTestId('subscription-status').textContent).toBe('Free trial');
    expect(screen.getByTestId('subscription-when').textContent).toBe(`Free trial until ${formatDate(trialEnds, 'en')}`);
    expect(screen.getByTestId('subscription-first-payment').textContent).toBe(
      `First payment on ${formatDate(trialEnds, 'en')}`,
    );

    fireEvent.click(screen.getByTestId('cancel-subscription'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(`Cancel the renewal? Premium stays until ${formatDate(trialEnds, 'en')}.`),
    ).toBeTruthy();
    expect(calls).not.toContain('POST /api/subscription/cancel_stripe/');
    fireEvent.click(within(dialog).getByTestId('confirm-cancel-subscription'));
    await waitFor(() =>
      expect(screen.getByTestId('subscription-when').textContent).toBe(
        `Premium ends on ${formatDate(trialEnds, 'en')}`,
      ),
    );
    expect(screen.getByTestId('subscription-status').textContent).toBe('Cancelled');
    expect(screen.queryByTestId('cancel-subscription')).toBeNull();

    fireEvent.click(screen.getByTestId('resume-subscription'));
    await waitFor(() => expect(screen.getByTestId('subscription-status').textContent).toBe('Free trial'));
    expect(await screen.findByText(`Subscription resumed. It renews on ${formatDate(renews, 'en')}.`)).toBeTruthy();
    expect(calls).toContain('POST /api/subscription/resume');
  });

  it('says so when there is no subscription', async () => {
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = async () => json(null);
    renderWith(<ManageSubscription />, '/settings');
    expect((await screen.findByTestId('no-subscription')).textContent).toBe("You don't have a subscription.");
  });
});

describe('premium and desires dialogs', () => {
  it('the trial says $0 today, then the price from the first charge date', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    globalThis.fetch = async () => json(plans());
    renderWith(<PremiumModal {...modalProps} />);
    const date = formatDate(new Date(Date.now() + 3 * 86400_000).toISOString(), 'en');
    await waitFor(() =>
      expect(screen.getByTestId('trial-terms').textContent).toBe(`$0 today, then $69.99/year from ${date}`),
    );
    fireEvent.click(screen.getByTestId('plan-monthly'));
    expect(screen.getByTestId('trial-terms').textContent).toBe(`$0 today, then $12.99/month from ${date}`);
  });

  it('a returning subscriber is told before paying that there is no second trial (issue 26)', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    globalThis.fetch = async () => json(plans({ trial_available: false }));
    renderWith(<PremiumModal {...modalProps} />);
    await waitFor(() =>
      expect(screen.getByTestId('trial-terms').textContent).toBe(
        '$69.99 today, then $69.99 every year until you cancel',
      ),
    );
    expect(screen.getByTestId('start-trial').textContent).toBe('Pay $69.99 now');
    expect(screen.queryByText(/free trial$/)).toBeNull();
    expect(screen.getByTestId('premium-note').textContent).toContain('already had your free trial');
  });

  it('choosing crypto promises no trial: the price now and the period it buys (issue 26)', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    globalThis.fetch = async () => json(plans());
    renderWith(<PremiumModal {...modalProps} />);
    await screen.findByText('3-day free trial');
    fireEvent.click(screen.getByTestId('pay-crypto'));
    fireEvent.click(screen.getByTestId('plan-monthly'));
    expect(screen.getByTestId('trial-terms').textContent).toBe('$12.99 now for one month of premium');
    expect(screen.getByTestId('start-trial').textContent).toBe('Pay $12.99 now');
    expect(screen.queryByText('Start free trial')).toBeNull();
    expect(screen.queryByText('3-day free trial')).toBeNull();
    expect(screen.queryByText(/Nothing is charged during the trial/)).toBeNull();
  });

  it('a subscriber is led to Settings to cancel', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(
      profile({
        has_subscription: true,
        subscription: { plan: 'monthly', status: 'active', trial_ends_at: null, renews_at: new Date().toISOString() },
      }),
    );
    globalThis.fetch = async () => json(plans());
    const router = renderWith(<PremiumModal {...modalProps} />, '/luna?premium=1');
    fireEvent.click(await screen.findByTestId('manage-subscription-link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(router.state.location.hash).toBe('#manage-subscription');
  });

  it('a cancelled subscriber sees when premium ends, not only "You have Premium"', async () => {
    setTokens('a.b.c', 'd.e.f');
    const end = '2026-11-30T18:07:06.725Z';
    seedProfile(
      profile({
        has_subscription: true,
        subscription: { plan: 'annual', status: 'cancelled', trial_ends_at: end, renews_at: null },
      }),
    );
    const cancelled: Subscription = {
      plan: 'annual',
      status: 'cancelled',
      trial_ends_at: end,
      renews_at: null,
      ends_at: end,
      provider: 'sandbox',
      can_resume: true,
    };
    globalThis.fetch = async (input) => json(pathOf(input) === '/api/subscription' ? cancelled : plans());
    renderWith(<PremiumModal {...modalProps} />);
    await waitFor(() =>
      expect(screen.getByTestId('premium-status-when').textContent).toBe(`Premium ends on ${formatDate(end, 'en')}`),
    );
    expect(screen.getByTestId('manage-subscription-link').textContent).toBe('Manage subscription');
  });

  it('with buying off, the buttons stay but are disabled and explained', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    globalThis.fetch = async () => json(plans({ payments_enabled: false, card_enabled: false, crypto_enabled: false }));
    renderWith(<DesiresModal {...modalProps} />);
    await screen.findByTestId('payments-off');
    expect(screen.getByTestId('payments-off').textContent).toContain('Buying is not available on this site yet');
    expect((screen.getByTestId('buy-pack_350') as HTMLButtonElement).disabled).toBe(true);
  });

  it('without crypto (Stripe only), the crypto option is disabled and explained', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    globalThis.fetch = async () => json(plans({ crypto_enabled: false }));
    renderWith(<PremiumModal {...modalProps} />);
    await screen.findByTestId('crypto-off');
    expect((screen.getByTestId('pay-crypto') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('pay-card').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('Crypto payments are not available on this site.')).toBeTruthy();
  });
});

describe('the sandbox checkout page', () => {
  const id = '0b7c7a0e-4a43-4a4e-9f3e-1f0f2b8c9d10';
  const page = (path: string) => {
    const router = createMemoryRouter(
      [
        { path: '/checkout/sandbox/:id', element: <SandboxCheckout /> },
        { path: '*', element: <p>elsewhere</p> },
      ],
      { initialEntries: [path] },
    );
    render(
      <AppProviders client={testQueryClient()}>
        <RouterProvider router={router} />
        <AlertStack />
      </AppProviders>,
    );
    return router;
  };
  const firstCharge = new Date(Date.now() + 3 * 86400_000).toISOString();
  const payment = {
    id,
    plan: 'monthly',
    amount_cents: 1299,
    currency: 'usd',
    status: 'pending',
    trial_days: 3,
    first_charge_at: firstCharge,
  };

  it('states the trial terms; Approve goes back to the page it started from with the outcome', async () => {
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
      methodOf(input, init) === 'POST' ? json({ status: 'paid', refunded: false }) : json(payment);
    const router = page(`/checkout/sandbox/${id}?return=${encodeURIComponent('/luna?chat=42')}`);
    expect((await screen.findByTestId('sandbox-trial-terms')).textContent).toBe(
      `$0 today, then $12.99/month from ${formatDate(firstCharge, 'en')}`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Approve payment' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/luna'));
    // With the payment's id, so the page asks whether it is credited (one toast saying what was bought).
    expect(router.state.location.search).toBe(`?chat=42&purchase=success&plan=monthly&payment=${id}`);
  });

  it('never leaves the site for a foreign return address, and says when a duplicate is refunded', async () => {
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
      methodOf(input, init) === 'POST' ? json({ status: 'paid', refunded: true }) : json(payment);
    const router = page(`/checkout/sandbox/${id}?return=${encodeURIComponent('https://evil.example/x')}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve payment' }));
    expect(
      await screen.findByText('You already have Premium, so this payment was not used. It will be refunded.'),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('');
  });

  it("someone else's checkout is not shown", async () => {
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = async () => json({ detail: 'Not found', code: 'not_found' }, 404);
    page(`/checkout/sandbox/${id}`);
    expect((await screen.findByTestId('sandbox-missing')).textContent).toContain(
      'This checkout does not exist or belongs to another account.',
    );
  });
});
