import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../lib/providers';
import { AlertStack } from '../../../components/ui/alerts';
import { initI18n } from '../../../lib/i18n';
import { formatClock, VoiceButton } from './voice-button';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers each fetch with the next of `answers` (the last one repeats) and records method, path and time. */
function mockFetch(answers: (() => Response)[]) {
  const calls: { method: string; path: string; at: number }[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const method = (input instanceof Request ? input.method : init?.method) ?? 'GET';
    calls.push({ method, path: new URL(url, 'http://x').pathname, at: Date.now() });
    return answers[Math.min(calls.length - 1, answers.length - 1)]!();
  };
  return calls;
}

function renderButton(messageId = 'm1', copies = 1) {
  const buttons = Array.from({ length: copies }, (_, i) => <VoiceButton key={i} messageId={messageId} />);
  const router = createMemoryRouter([{ path: '/chat', element: <>{buttons}</> }], {
    initialEntries: ['/chat'],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
      <AlertStack />
    </AppProviders>,
  );
  return router;
}

const played: string[] = [];

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => {
  played.length = 0;
  // jsdom does not play media: record what would play and fire the events a browser fires.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    played.push(this.getAttribute('src') ?? '');
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    this.dispatchEvent(new Event('pause'));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const url = '/api/media/chats/u1/voice-abc.mp3?exp=1&sig=s';

describe('VoiceButton', () => {
  it('asks every second while processing, then plays the audio and caches its URL', async () => {
    const calls = mockFetch([
      () => json({ state: 'processing', audio_url: null }),
      () => json({ state: 'processing', audio_url: null }),
      () => json({ state: 'ready', audio_url: url }),
    ]);
    renderButton();
    const button = screen.getByTestId('voice-button');
    expect(button.getAttribute('aria-label')).toBe('Play voice message');
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('data-status')).toBe('loading'));
    await waitFor(() => expect(played).toEqual([url]), { timeout: 4000 });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(Array(3).fill('POST /api/audio/m1'));
    // The specification's poll: one second between requests.
    for (let i = 1; i < calls.length; i += 1) expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(950);
    const audio = screen.getByTestId('voice-audio') as HTMLAudioElement;
    expect(audio.getAttribute('src')).toBe(url);
    await waitFor(() => expect(button.getAttribute('data-status')).toBe('playing'));
    expect(button.getAttribute('aria-label')).toBe('Pause voice message');

    // Pause, play again: no new request.
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('data-status')).toBe('paused'));
    fireEvent.click(button);
    await waitFor(() => expect(played).toEqual([url, url]));
    expect(calls).toHaveLength(3);
  }, 10_000);

  it('uses the cached URL for the same message without asking again', async () => {
    const calls = mockFetch([() => json({ state: 'ready', audio_url: url })]);
    renderButton('m2', 2);
    const [first, second] = screen.getAllByTestId('voice-button');
    fireEvent.click(first!);
    await waitFor(() => expect(played).toEqual([url]));
    fireEvent.click(second!);
    await waitFor(() => expect(played).toEqual([url, url]));
    expect(calls).toHaveLength(1);
  });

  it('runs one request loop per message when pressed twice while it loads', async () => {
    const calls = mockFetch([
      () => json({ state: 'processing', audio_url: null }),
      () => json({ state: 'ready', audio_url: url }),
    ]);
    renderButton('m3', 2);
    const [first, second] = screen.getAllByTestId('voice-button');
    fireEvent.click(first!);
    fireEvent.click(second!);
    await waitFor(() => expect(played).toEqual([url, url]), { timeout: 3000 });
    expect(calls).toHaveLength(2);
  });

  it('opens the premium modal on 402', async () => {
    mockFetch([() => json({ detail: 'This is a Premium feature', code: 'premium_required' }, 402)]);
    const router = renderButton();
    fireEvent.click(screen.getByTestId('voice-button'));
    await waitFor(() => expect(router.state.location.search).toContain('premium=1'));
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('voice');
    expect(played).toEqual([]);
    expect(screen.getByTestId('voice-button').getAttribute('data-status')).toBe('idle');
  });

  it('shows an error when the voice fails, and tries again on the next press', async () => {
    const calls = mockFetch([
      () => json({ state: 'processing', audio_url: null }),
      () => json({ state: 'error', audio_url: null }),
      () => json({ state: 'ready', audio_url: url }),
    ]);
    renderButton();
    const button = screen.getByTestId('voice-button');
    fireEvent.click(button);
    expect(await screen.findByText("Couldn't play the voice message. Try again.", {}, { timeout: 3000 })).toBeTruthy();
    expect(played).toEqual([]);
    expect(button.getAttribute('data-status')).toBe('idle');
    fireEvent.click(button);
    await waitFor(() => expect(played).toEqual([url]));
    expect(calls).toHaveLength(3);
  });

  it("shows the server's progress while the voice is made: a filled ring and a status text", async () => {
    mockFetch([
      () => json({ state: 'processing', audio_url: null, progress: 0 }),
      () => json({ state: 'processing', audio_url: null, progress: 0.5 }),
      () => json({ state: 'ready', audio_url: url }),
    ]);
    renderButton('m5');
    fireEvent.click(screen.getByTestId('voice-button'));
    await waitFor(() => expect(screen.getByTestId('voice-progress').getAttribute('aria-valuenow')).toBe('0'));
    expect(screen.getByRole('status').textContent).toBe('Preparing the voice… 0%');
    await waitFor(() => expect(screen.getByTestId('voice-progress').getAttribute('aria-valuenow')).toBe('50'), {
      timeout: 3000,
    });
    expect(screen.getByRole('progressbar', { name: 'Preparing the voice message…' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Preparing the voice… 50%');
    await waitFor(() => expect(played).toEqual([url]), { timeout: 3000 });
    expect(screen.queryByTestId('voice-progress')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
  }, 10_000);

  it('turns an indeterminate ring when the server gives no estimate', async () => {
    mockFetch([() => json({ state: 'processing', audio_url: null }), () => json({ state: 'ready', audio_url: url })]);
    renderButton('m6');
    fireEvent.click(screen.getByTestId('voice-button'));
    const ring = await screen.findByTestId('voice-progress');
    expect(ring.getAttribute('data-progress')).toBe('indeterminate');
    expect(ring.hasAttribute('aria-valuenow')).toBe(false);
    expect(ring.getAttribute('class')).toContain('animate-spin');
    expect(screen.getByRole('status').textContent).toBe('Preparing the voice…');
    await waitFor(() => expect(played).toEqual([url]), { timeout: 3000 });
  });

  it('shows a playback bar once ready: position and duration, seeking with the slider', async () => {
    mockFetch([() => json({ state: 'ready', audio_url: url })]);
    renderButton('m7');
    expect(screen.queryByTestId('voice-player')).toBeNull();
    fireEvent.click(screen.getByTestId('voice-button'));
    await waitFor(() => expect(played).toEqual([url]));
    const audio = screen.getByTestId('voice-audio') as HTMLAudioElement;
    Object.defineProperty(audio, 'duration', { configurable: true, value: 12.4 });
    fireEvent(audio, new Event('loadedmetadata'));
    audio.currentTime = 3.2;
    fireEvent(audio, new Event('timeupdate'));
    const slider = await screen.findByRole('slider', { name: 'Position in the voice message' });
    expect(screen.getByTestId('voice-time').textContent).toBe('0:03 / 0:12');
    expect(slider.getAttribute('aria-valuetext')).toBe('0:03 of 0:12');
    expect(slider.getAttribute('max')).toBe('12.4');
    // Tap or drag on the bar: the audio jumps there.
    fireEvent.change(slider, { target: { value: '8' } });
    expect(audio.currentTime).toBe(8);
    expect(screen.getByTestId('voice-time').textContent).toBe('0:08 / 0:12');
    // At the end the bar stays, back at the start, ready to play again.
    fireEvent(audio, new Event('ended'));
    expect(screen.getByTestId('voice-time').textContent).toBe('0:00 / 0:12');
    expect(screen.getByTestId('voice-button').getAttribute('data-status')).toBe('idle');
  });

  it('formats clock times', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(65.9)).toBe('1:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatClock(Infinity)).toBe('0:00');
  });

  it("shows the API's error for a message that has no voice", async () => {
    mockFetch([
      () =>
        json(
          { detail: "Only the character's finished text messages can be played as voice", code: 'voice_unavailable' },
          409,
        ),
    ]);
    renderButton();
    fireEvent.click(screen.getByTestId('voice-button'));
    expect(await screen.findByText("Only the character's finished text messages can be played as voice")).toBeTruthy();
  });
});
