import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallTokenResponse } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { storage } from '../../../lib/storage';
import type { CallAudio } from '../audio/engine';
import { PUSH_TO_TALK_KEY, type CallDeps } from '../hooks/use-call';
import { FakeSink, FakeSocket, pcm, ready } from '../test-helpers';
import { CallView, type CallViewProps } from './call-view';

const token: CallTokenResponse = {
  token: 't1',
  url: '/api/audio_chat/ws?token=t1',
  expires_at: '2026-11-24T07:00:00.000Z',
  call_id: '7b0c1a52-7d1e-4f57-9b0e-5b0a3c1d2e3f',
  chat_id: 'c1',
  seconds_left: 1800,
};

function fakeCall(audioError?: string) {
  const sockets: FakeSocket[] = [];
  const sink = new FakeSink();
  let micListener: ((pcm: ArrayBuffer) => void) | null = null;
  const audio: CallAudio = {
    sink,
    onFrame: (listener) => {
      micListener = listener;
    },
    micLevel: () => 0.1,
    playLevel: () => 0.2,
    playbackPath: () => 'loopback' as const,
    setMuted: vi.fn(),
    outputs: async () => [],
    setOutput: async () => {},
    canChooseOutput: false,
    resume: vi.fn(async () => true),
    close: vi.fn(),
  };
  const deps: CallDeps = {
    requestToken: vi.fn(async () => token),
    openAudio: vi.fn(async () => {
      if (audioError) throw Object.assign(new Error(audioError), { failure: audioError });
      return audio;
    }),
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  };
  return {
    deps,
    audio,
    sink,
    sockets,
    socket: () => sockets[sockets.length - 1]!,
    speak: (bytes = 640) => micListener?.(pcm(bytes)),
  };
}

function renderCall(props: Partial<CallViewProps> & { deps: Partial<CallDeps> }, strict = false) {
  const handlers = {
    onRequireAuth: vi.fn(),
    onRequirePremium: vi.fn(),
    onHungUp: vi.fn(),
    onBack: vi.fn(),
  };
  const router = createMemoryRouter(
    [
      {
        path: '/audio',
        element: (
          <CallView
            target={{ chat_id: 'c1' }}
            character={{ name: 'Aiko', avatarUrl: '/api/media/bots/aiko.webp' }}
            autoStart
            {...handlers}
            {...props}
          />
        ),
      },
    ],
    { initialEntries: ['/audio?chat=c1'] },
  );
  const tree = (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
  const view = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...handlers, unmount: view.unmount };
}

const stateLine = () => screen.getByTestId('call-state');

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  storage.remove(PUSH_TO_TALK_KEY);
  vi.restoreAllMocks();
});

describe('CallView', () => {
  it('shows each state of a call: connecting, listening, you, thinking, speaking, reconnecting; captions and the clock', async () => {
    const call = fakeCall();
    renderCall({ deps: call.deps });
    expect(stateLine().textContent).toBe('Connecting…');
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    expect(call.deps.requestToken).toHaveBeenCalledWith({ chat_id: 'c1' });
    expect(call.socket().url).toBe('ws://localhost:3000/api/audio_chat/ws?token=t1');
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready({ elapsed_s: 65, seconds_left: 240 }));
    });
    expect(stateLine().textContent).toBe('Listening');
    // How the reply plays (the engine's choice) is on the screen for the browser journey.
    expect(screen.getByTestId('call-screen').getAttribute('data-playback')).toBe('loopback');
    expect(screen.getByTestId('call-timer').textContent).toBe('1:05');
    // Little time left today: shown.
    expect(screen.getByTestId('call-time-left').textContent).toBe('4:00 left today');
    act(() => call.speak());
    expect(call.socket().frames).toHaveLength(1);

    act(() => call.socket().serverSend({ type: 'state', state: 'user_speaking' }));
    expect(stateLine().textContent).toBe("You're speaking");
    act(() => {
      call.socket().serverSend({
        type: 'caption',
        role: 'user',
        turn_id: 'u1',
        message_id: 'm1',
        text: 'Tell me a story',
        final: true,
      });
      call.socket().serverSend({ type: 'state', state: 'thinking' });
    });
    expect(stateLine().textContent).toBe('Thinking…');
    act(() => {
      call.socket().serverSend({ type: 'state', state: 'speaking' });
      call.socket().serverSend({ type: 'audio_start', turn_id: 'b1', sample_rate: 24000 });
      call.socket().serverSend(pcm(960));
      call.socket().serverSend({
        type: 'caption',
        role: 'bot',
        turn_id: 'b1',
        message_id: 'm2',
        text: 'Once upon a time…',
        final: true,
      });
    });
    expect(stateLine().textContent).toBe('Aiko is speaking');
    expect(call.sink.pushed).toHaveLength(1);
    const captions = screen.getByTestId('call-captions');
    expect(captions.textContent).toContain('Tell me a story');
    expect(captions.textContent).toContain('Once upon a time…');

    act(() => call.socket().serverSend({ type: 'interrupt', turn_id: 'b1' }));
    await waitFor(() => expect(call.sink.flushed).toEqual(['b1']));
    expect(call.socket().json.at(-1)).toEqual({ type: 'flushed', turn_id: 'b1', played_ms: 0 });
    expect(screen.getByTestId('call-captions').lastElementChild?.textContent).toBe('Aiko: Once upon a time…');
    // No output choice where the browser gives none.
    expect(screen.queryByTestId('call-output')).toBeNull();

    act(() => call.socket().serverClose(1006));
    expect(stateLine().textContent).toBe('Connection lost. Reconnecting…');
    expect(screen.getByTestId('call-screen').getAttribute('data-phase')).toBe('reconnecting');
  });

  it('mutes: no frames go up, the screen says so, and the microphone track is switched off', async () => {
    const call = fakeCall();
    renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    fireEvent.click(screen.getByTestId('call-mute'));
    expect(screen.getByTestId('call-mute').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('call-muted').textContent).toBe("Your microphone is off. Aiko can't hear you.");
    expect(stateLine().textContent).toBe("You're muted");
    expect(call.audio.setMuted).toHaveBeenLastCalledWith(true);
    act(() => call.speak());
    expect(call.socket().frames).toHaveLength(0);
    expect(call.socket().json).toContainEqual({ type: 'mute', muted: true });
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    act(() => call.speak());
    expect(call.socket().frames).toHaveLength(1);
  });

  it('push-to-talk: a setting kept on the device; the hold button sends talk down and up', async () => {
    const call = fakeCall();
    renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    expect(screen.queryByTestId('call-talk')).toBeNull();
    fireEvent.click(screen.getByTestId('call-ptt-toggle'));
    expect(storage.get(PUSH_TO_TALK_KEY)).toBe('1');
    expect(stateLine().textContent).toBe('Hold the button to talk');
    const talk = screen.getByTestId('call-talk');
    act(() => call.speak());
    fireEvent.pointerDown(talk);
    expect(talk.textContent).toBe('Release to send');
    act(() => call.speak());
    fireEvent.pointerUp(talk);
    act(() => call.speak());
    expect(call.socket().frames).toHaveLength(1);
    expect(call.socket().json).toEqual([
      { type: 'ptt', mode: true },
      { type: 'talk', down: true },
      { type: 'talk', down: false },
    ]);
  });

  it('starts in push-to-talk when the setting is on', async () => {
    storage.set(PUSH_TO_TALK_KEY, '1');
    const call = fakeCall();
    renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    expect(screen.getByTestId('call-talk')).toBeTruthy();
    expect(call.socket().json).toEqual([{ type: 'ptt', mode: true }]);
  });

  it('hangs up: sends hangup, closes the audio and goes back to the chat on the server’s end', async () => {
    const call = fakeCall();
    const handlers = renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    fireEvent.click(screen.getByRole('button', { name: 'Hang up' }));
    expect(call.socket().json.at(-1)).toEqual({ type: 'hangup' });
    expect(handlers.onHungUp).not.toHaveBeenCalled();
    act(() => call.socket().serverSend({ type: 'end', reason: 'hangup' }));
    expect(handlers.onHungUp).toHaveBeenCalledWith('c1');
    expect(call.audio.close).toHaveBeenCalled();
  });

  it.each([
    ['minutes_exhausted', "The call ended because today's call time is used up. It renews tomorrow."],
    ['replaced', 'The call moved to another tab or device.'],
    ['server_shutdown', 'The server restarted, so the call ended. You can call again.'],
    ['timeout', 'The call ended after a long silence.'],
    ['error', 'Something went wrong and the call ended. You can call again.'],
  ] as const)('explains an end by the server (%s) and offers the chat and calling again', async (reason, text) => {
    const call = fakeCall();
    const handlers = renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
      call.socket().serverSend({ type: 'end', reason });
    });
    expect(screen.getByTestId('call-ended').textContent).toContain(text);
    expect(handlers.onHungUp).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Back to the chat' }));
    expect(handlers.onBack).toHaveBeenCalledWith('c1');
    fireEvent.click(screen.getByRole('button', { name: 'Call again' }));
    await waitFor(() => expect(call.sockets).toHaveLength(2));
  });

  it.each([
    ['mic_denied', 'Microphone access is blocked'],
    ['mic_missing', 'No microphone found'],
    ['worklet_unsupported', "This browser can't make calls"],
  ] as const)('explains a microphone or browser problem (%s) with a retry', async (failure, title) => {
    const call = fakeCall(failure);
    renderCall({ deps: call.deps });
    const problem = await screen.findByTestId('call-problem');
    expect(problem.getAttribute('data-failure')).toBe(failure);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(title);
    expect(call.sockets).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(call.deps.openAudio).toHaveBeenCalledTimes(2));
  });

  it('asks for a new token once when the first expired while the microphone was being allowed', async () => {
    const call = fakeCall();
    renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => call.socket().serverClose(4001));
    await waitFor(() => expect(call.sockets).toHaveLength(2));
    expect(call.deps.requestToken).toHaveBeenCalledTimes(2);
    act(() => call.socket().serverClose(4001));
    expect((await screen.findByTestId('call-problem')).getAttribute('data-failure')).toBe('unreachable');
  });

  it('starts one call under strict mode (mounted twice in development)', async () => {
    const call = fakeCall();
    renderCall({ deps: call.deps }, true);
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    expect(stateLine().textContent).toBe('Listening');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(call.sockets).toHaveLength(1);
  });

  it('leaving the page hangs up and says the chat changed', async () => {
    const call = fakeCall();
    const onEnded = vi.fn();
    const handlers = renderCall({ deps: call.deps, onEnded });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    handlers.unmount();
    expect(call.socket().json.at(-1)).toEqual({ type: 'hangup' });
    expect(onEnded).toHaveBeenCalledWith('hangup', 'c1');
    expect(handlers.onHungUp).not.toHaveBeenCalled();
    expect(call.audio.close).toHaveBeenCalled();
  });

  it('lets the user switch the sound output where the browser allows it', async () => {
    const call = fakeCall();
    const setOutput = vi.fn(async () => {});
    Object.assign(call.audio, {
      canChooseOutput: true,
      outputs: async () => [
        { id: 'default', label: 'Speaker' },
        { id: 'ear', label: 'Earpiece' },
      ],
      setOutput,
    });
    renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    act(() => {
      call.socket().serverOpen();
      call.socket().serverSend(ready());
    });
    const output = await screen.findByRole('button', { name: 'Sound: Speaker' });
    fireEvent.click(output);
    expect(setOutput).toHaveBeenCalledWith('ear');
    expect(screen.getByRole('button', { name: 'Sound: Earpiece' })).toBeTruthy();
  });

  it('can hang up while the call is still being set up', async () => {
    const call = fakeCall();
    call.deps.requestToken = vi.fn(() => new Promise<CallTokenResponse>(() => {}));
    const handlers = renderCall({ deps: call.deps });
    fireEvent.click(await screen.findByRole('button', { name: 'Hang up' }));
    expect(handlers.onHungUp).toHaveBeenCalledWith(null);
    expect(call.deps.openAudio).not.toHaveBeenCalled();
  });

  it('offers a tap to turn on the sound when the browser holds the audio', async () => {
    const call = fakeCall();
    call.audio.resume = vi.fn().mockResolvedValueOnce(false).mockResolvedValue(true);
    renderCall({ deps: call.deps });
    await waitFor(() => expect(call.sockets).toHaveLength(1));
    const button = await screen.findByRole('button', { name: 'Tap to turn on the sound' });
    fireEvent.click(button);
    await waitFor(() => expect(screen.queryByTestId('call-unblock-audio')).toBeNull());
    expect(call.audio.resume).toHaveBeenCalledTimes(2);
  });

  it('waits for a tap when the browser has not seen one on this page', async () => {
    const call = fakeCall();
    renderCall({ deps: call.deps, autoStart: false });
    expect(call.deps.requestToken).not.toHaveBeenCalled();
    expect(stateLine().textContent).toBe('Ready to call');
    fireEvent.click(screen.getByRole('button', { name: 'Start the call' }));
    await waitFor(() => expect(call.sockets).toHaveLength(1));
  });
});
