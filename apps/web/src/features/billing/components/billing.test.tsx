import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { AlertStack, dismissAlert, showAlert } from '../../../components/ui/alerts';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { formatCountdown, formatPrice } from '../format';
import { DailyClaim } from './daily-claim';
import DesiresModal from './desires-modal';
import { formatClaimCountdown } from '../use-daily-claim';
import { peekWaitingAction, waitForDesires } from '../../../lib/waiting-action';
import PurchaseReturn from './purchase-return';
import { currentReturnPath, purchaseReturnUrl, safeReturnPath } from '../return-path';
import { seedProfile, loadedProfile, testQueryClient } from '../../../test/profile';

const profile = (overrides: Partial<Profile> = {}): Profile => ({
  id: 'u1',
  name: 'Ann',
  age: null,
  email: 'ann@example.test',
  is_email_confirmed: true,
  has_subscription: false,
  num_tokens: 1200,
  locale: 'en',
  role: 'user',
  subscription: null,
  next_claim_at: null,
  ...overrides,
});

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

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('daily claim', () => {
  it('asks for confirmation, adds 100 at once and shows a countdown to next_at', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    const nextAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const calls: string[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      calls.push(
        `${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${new URL(url, 'http://x').pathname}`,
      );
      return json({ claimed: true, next_at: nextAt, num_tokens: 1300 });
    };
    renderWith(<DailyClaim />);
    fireEvent.click(await screen.findByTestId('claim-button'));
    fireEvent.click(await screen.findByTestId('claim-confirm'));
    await waitFor(() => expect(loadedProfile()?.num_tokens).toBe(1300));
    expect(calls).toEqual(['POST /api/profile/claim_desires']);
    expect(loadedProfile()?.next_claim_at).toBe(nextAt);
    expect((await screen.findByTestId('claim-countdown')).textContent).toMatch(/Next claim in 2[34]:\d\d:\d\d/);
    expect(await screen.findByText('+100 desires added to your balance')).toBeTruthy();
  });

  it('never shows more than the claim period (24:00:08 with a client clock behind the server)', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ next_claim_at: new Date(Date.now() + 24 * 3600_000 + 8000).toISOString() }));
    renderWith(<DailyClaim />);
    expect((await screen.findByTestId('claim-countdown')).textContent).toBe('Next claim in 23:59:59');
    expect(formatClaimCountdown(24 * 3600_000 + 8000)).toBe('23:59:59');
    expect(formatClaimCountdown(24 * 3600_000)).toBe('23:59:59');
    expect(formatClaimCountdown(1)).toBe('00:00:01');
    expect(formatClaimCountdown(-5)).toBe('00:00:00');
  });

  it('shows the countdown instead of the button while waiting, and nothing to guests', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ next_claim_at: new Date(Date.now() + 3600_000).toISOString() }));
    renderWith(<DailyClaim />);
    expect(await screen.findByTestId('claim-countdown')).toBeTruthy();
    expect(screen.queryByTestId('claim-button')).toBeNull();
    act(() => clearSession());
    await waitFor(() => expect(screen.queryByTestId('daily-claim')).toBeNull());
  });
});

describe('the free claim before the shop', () => {
  const modalProps = (from: string, onClose: () => void = () => undefined) => ({
    onClose,
    from,
    next: null,
    switchTo: () => undefined,
    requireAuth: () => undefined,
  });

  it('a zero balance with a claim available: the claim first, one tap, then the waiting unblur runs', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 0, next_claim_at: null }));
    const nextAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const calls: string[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://x').pathname;
      calls.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url}`);
      if (url === '/api/profile/claim_desires') return json({ claimed: true, next_at: nextAt, num_tokens: 100 });
      return json({
        packs: [],
        plans: [],
        currency: 'usd',
        payments_enabled: true,
        card_enabled: true,
        crypto_enabled: false,
      });
    };
    let ran = 0;
    let closed = 0;
    waitForDesires({ from: 'unblur', cost: 3, run: () => void (ran += 1) });
    renderWith(<DesiresModal {...modalProps('unblur', () => void (closed += 1))} />);
    const offer = await screen.findByTestId('claim-offer');
    expect(offer.textContent).toContain('the picture unblurs right away');
    // Offered before the packs.
    expect(
      offer.compareDocumentPosition(screen.getByText('More desires')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    fireEvent.click(screen.getByTestId('claim-offer-button'));
    await waitFor(() => expect(ran).toBe(1));
    expect(closed).toBe(1);
    expect(calls.filter((c) => c === 'POST /api/profile/claim_desires')).toHaveLength(1);
    expect(loadedProfile()?.num_tokens).toBe(100);
    expect(peekWaitingAction('unblur')).toBeNull();
  });

  it('no claim available: the shop says when the next free desires come, never more than 23:59:59', async () => {
    setTokens('a.b.c', 'd.e.f');
    // A client clock 8 s behind the server's.
    seedProfile(profile({ num_tokens: 0, next_claim_at: new Date(Date.now() + 24 * 3600_000 + 8000).toISOString() }));
    globalThis.fetch = async () => json({ packs: [], plans: [], currency: 'usd' });
    renderWith(<DesiresModal {...modalProps('counter')} />);
    expect((await screen.findByTestId('claim-offer-next')).textContent).toBe('Free desires again in 23:59:59');
    expect(screen.queryByTestId('claim-offer')).toBeNull();
  });
});

describe('back from checkout', () => {
  it('?purchase=success says so, reloads the profile and drops the flag', async () => {
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = async () => json(profile({ num_tokens: 1550 }));
    const router = renderWith(<PurchaseReturn />, '/?purchase=success');
    expect(
      await screen.findByText(
        'Purchase successful. Adding desires or premium may take up to 5 minutes, so refresh or contact support.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(loadedProfile()?.num_tokens).toBe(1550));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  /** Alerts outlive a test (one stack for the page): each of these starts with none. */
  const clearAlerts = () =>
    act(() => {
      const last = showAlert('', { autoCloseMs: 0 });
      for (let id = 1; id <= last; id += 1) dismissAlert(id);
    });
  const paymentStatus = (credited: boolean, plan: string) => async (input: RequestInfo | URL) =>
    String(input).includes('/api/billing/payments/p1')
      ? json({ id: 'p1', plan, status: credited ? 'paid' : 'pending', credited, refunded: false })
      : json(profile({ num_tokens: 350, has_subscription: plan === 'monthly' }));

  it('already credited: one toast saying what was bought, back on the page with its own query (issue 26)', async () => {
    clearAlerts();
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = paymentStatus(true, 'pack_350') as typeof fetch;
    const router = renderWith(<PurchaseReturn />, '/luna?chat=42&purchase=success&plan=pack_350&payment=p1');
    expect(await screen.findByText('+350 desires')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?chat=42'));
    expect(router.state.location.pathname).toBe('/luna');
    // Not a second toast saying it "may take up to 5 minutes".
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/^Purchase successful\./)).toBeNull();
  });

  it('not credited yet: only the "may take up to 5 minutes" toast', async () => {
    clearAlerts();
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = paymentStatus(false, 'pack_350') as typeof fetch;
    renderWith(<PurchaseReturn />, '/?purchase=success&plan=pack_350&payment=p1');
    expect(
      await screen.findByText(/^Purchase successful\. Adding desires or premium may take up to 5 minutes/),
    ).toBeTruthy();
    expect(screen.queryByText('+350 desires')).toBeNull();
  });

  it('a subscription already on says Premium is active', async () => {
    setTokens('a.b.c', 'd.e.f');
    globalThis.fetch = paymentStatus(true, 'monthly') as typeof fetch;
    renderWith(<PurchaseReturn />, '/?purchase=success&plan=monthly&payment=p1');
    expect(await screen.findByText('Premium is active')).toBeTruthy();
  });

  it('?purchase=failed says "Payment cancelled"', async () => {
    renderWith(<PurchaseReturn />, '/?purchase=failed&plan=pack_350');
    expect(await screen.findByText('Payment cancelled')).toBeTruthy();
  });
});

describe('return paths', () => {
  it('the page the buyer is on, without modal or outcome flags, and only ever a path of this site', () => {
    expect(currentReturnPath({ pathname: '/luna', search: '?chat=42&pw=1&from=counter' })).toBe('/luna?chat=42');
    expect(currentReturnPath({ pathname: '/', search: '?premium=1&from=get-premium&purchase=failed' })).toBe('/');
    expect(safeReturnPath('/chat')).toBe('/chat');
    const attacks = [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/..//evil.example',
      '/%2e%2e//evil.example',
      '/%2E%2E//evil.example',
      '/.//evil.example',
      '/a/../..//evil.example',
    ];
    for (const bad of [...attacks, null]) expect(safeReturnPath(bad)).toBe('/');
    for (const bad of attacks)
      expect(purchaseReturnUrl(bad, 'success', 'pack_350')).toBe('/?purchase=success&plan=pack_350');
    expect(purchaseReturnUrl('/luna?chat=1', 'failed', 'monthly')).toBe('/luna?chat=1&purchase=failed&plan=monthly');
  });
});

describe('formatting', () => {
  it('writes prices from integer cents and countdowns as hh:mm:ss', () => {
    expect(formatPrice(199, 'usd', 'en')).toBe('$1.99');
    expect(formatPrice(2499, 'usd', 'en')).toBe('$24.99');
    expect(formatPrice(0, 'usd', 'en')).toBe('$0');
    expect(formatCountdown(3_723_000)).toBe('01:02:03');
    expect(formatCountdown(-5)).toBe('00:00:00');
  });
});
