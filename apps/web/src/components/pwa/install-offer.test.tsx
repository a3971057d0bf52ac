import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { countSentMessage, INSTALL_AFTER_MESSAGES } from '../../lib/install-offer';
import { setInstallPromptEvent } from '../../lib/pwa';
import { InstallOffer } from './install-offer';

/** "Install the app" (issue 31): once, after a few messages, never on the first screen; iOS gets the steps. */
function installEvent() {
  const event = new Event('beforeinstallprompt');
  const prompt = vi.fn(async () => undefined);
  return Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome: 'accepted' as const }) });
}

const sendMessages = (n: number) => {
  for (let i = 0; i < n; i++) countSentMessage();
};

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  act(() => setInstallPromptEvent(null));
  vi.restoreAllMocks();
});

describe('the install offer', () => {
  it('waits for a few messages, then offers the browser install once', async () => {
    const event = installEvent();
    act(() => setInstallPromptEvent(event));
    sendMessages(INSTALL_AFTER_MESSAGES - 1);
    const first = render(<InstallOffer />);
    expect(screen.queryByTestId('install-offer')).toBeNull();
    first.unmount();

    sendMessages(1);
    const second = render(<InstallOffer />);
    expect(screen.getByTestId('install-offer').textContent).toContain('Install Reverie');
    fireEvent.click(screen.getByRole('button', { name: 'Install the app' }));
    expect(event.prompt).toHaveBeenCalledTimes(1);
    await act(async () => undefined);
    expect(screen.queryByTestId('install-offer')).toBeNull();
    second.unmount();

    // Offered once: a new prompt from the browser later is not shown again.
    act(() => setInstallPromptEvent(installEvent()));
    render(<InstallOffer />);
    expect(screen.queryByTestId('install-offer')).toBeNull();
  });

  it('"Not now" ends the offer too', () => {
    act(() => setInstallPromptEvent(installEvent()));
    sendMessages(INSTALL_AFTER_MESSAGES);
    const view = render(<InstallOffer />);
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('install-offer')).toBeNull();
    view.unmount();
    render(<InstallOffer />);
    expect(screen.queryByTestId('install-offer')).toBeNull();
  });

  it('on an iPhone: the Share → Add to Home Screen steps, no install button', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari',
    );
    sendMessages(INSTALL_AFTER_MESSAGES);
    render(<InstallOffer />);
    expect(screen.getByTestId('install-offer-text').textContent).toBe(
      'Tap the Share button, then “Add to Home Screen”.',
    );
    expect(screen.queryByRole('button', { name: 'Install the app' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('install-offer')).toBeNull();
  });

  it('nothing where the browser cannot install, nor when the app runs installed', () => {
    sendMessages(INSTALL_AFTER_MESSAGES);
    const plain = render(<InstallOffer />);
    expect(screen.queryByTestId('install-offer')).toBeNull();
    plain.unmount();
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(display-mode: standalone)' }) as MediaQueryList,
    );
    act(() => setInstallPromptEvent(installEvent()));
    render(<InstallOffer />);
    expect(screen.queryByTestId('install-offer')).toBeNull();
  });
});
