import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { CallTokenBody, CallTokenResponse } from '@reverie/shared';
import { ApiRequestError } from '../../../lib/api-client';
import { API_BASE_URL } from '../../../lib/config';
import { storage } from '../../../lib/storage';
import { createCallToken } from '../api/create-call-token';
import type { CallAudio } from '../audio/engine';
import type { PlaybackPath } from '../audio/loopback';
import { callReducer, initialCallState, type CallEnd, type CallFailure } from '../call-state';
import { CallClient, socketUrl, type CallEvent, type SocketLike } from '../protocol';

/** The push-to-talk setting, kept on this device. */
export const PUSH_TO_TALK_KEY = 'reverie.calls.push_to_talk';
/** The reply rate assumed until the server's first `audio_start` says otherwise. */
const FIRST_OUTPUT_RATE = 24_000;

export interface CallDeps {
  requestToken: (body: CallTokenBody) => Promise<CallTokenResponse>;
  /** Opens the microphone and the playback (engine.ts; throws CallAudioError). */
  openAudio: (outputRate: number) => Promise<CallAudio>;
  openSocket: (url: string) => SocketLike;
}

const browserDeps: CallDeps = {
  requestToken: createCallToken,
  openAudio: async (rate) => (await import('../audio/engine')).openCallAudio(rate),
  openSocket: (url) => new WebSocket(url),
};

export interface UseCallOptions {
  target: CallTokenBody;
  /** A guest: the page asks them to sign up or log in. */
  onRequireAuth: () => void;
  /** 402: the page opens the premium offer. */
  onRequirePremium: () => void;
  /** The call is over (any reason); the chat it was in, when known. */
  onEnded: (reason: CallEnd, chatId: string | null) => void;
  deps?: Partial<CallDeps>;
  /** A reason known before asking the server (the server said calls are unavailable). */
  preflight?: CallFailure | null;
}

/** The server's reason calls are unavailable (`calls.reason`), as the failure the screen explains. */
export function unavailableFailure(reason: string | null | undefined): CallFailure {
  return reason === 'stt_disabled' || reason === 'stt_model_unavailable' || reason === 'stt_provider_unreachable'
    ? reason
    : 'stt_unavailable';
}

function failureOf(error: unknown): { failure: CallFailure; retryAfterS: number | null } | 'auth' {
  if (!(error instanceof ApiRequestError)) return { failure: 'unreachable', retryAfterS: null };
  // 409 stt_unavailable (with the reason) before 409 call_in_progress; 503 from older servers.
  if (error.data?.code === 'stt_unavailable')
    return { failure: unavailableFailure(error.data.errors?.reason?.[0]), retryAfterS: null };
  switch (error.status) {
    case 401:
      return 'auth';
    case 402:
      return { failure: 'premium_required', retryAfterS: null };
    case 404:
      return { failure: 'not_found', retryAfterS: null };
    case 409:
      return { failure: 'call_in_progress', retryAfterS: null };
    case 429:
      return { failure: 'call_minutes_exhausted', retryAfterS: error.retryAfterSeconds };
    case 503:
      return { failure: 'stt_unavailable', retryAfterS: null };
    default:
      return { failure: 'unreachable', retryAfterS: null };
  }
}

/**
 * One call's life on the page: the token, the microphone and playback, the protocol client,
 * the state (call-state.ts), the clock, mute, push-to-talk and hang-up.
 */
export function useCall({ target, onRequireAuth, onRequirePremium, onEnded, deps, preflight }: UseCallOptions) {
  const [view, dispatch] = useReducer(callReducer, undefined, () =>
    initialCallState(storage.get(PUSH_TO_TALK_KEY) === '1'),
  );
  const client = useRef<CallClient | null>(null);
  const audio = useRef<CallAudio | null>(null);
  const chatId = useRef<string | null>(null);
  const attempt = useRef(0);
  const [outputs, setOutputs] = useState<{ id: string; label: string }[]>([]);
  const [playback, setPlayback] = useState<PlaybackPath | null>(null);
  const latest = useRef({ target, onRequireAuth, onRequirePremium, onEnded, deps, view, preflight });
  latest.current = { target, onRequireAuth, onRequirePremium, onEnded, deps, view, preflight };

  const teardown = useCallback(() => {
    client.current?.dispose();
    client.current = null;
    audio.current?.close();
    audio.current = null;
  }, []);

  const start = useCallback(
    async (retryingToken = false) => {
      const run = ++attempt.current;
      const all = { ...browserDeps, ...latest.current.deps };
      teardown();
      if (!retryingToken) dispatch({ type: 'start' });
      const known = latest.current.preflight;
      if (known) {
        dispatch({ type: 'fail', failure: known });
        if (known === 'premium_required') latest.current.onRequirePremium();
        return;
      }
      let token: CallTokenResponse;
      try {
        token = await all.requestToken(latest.current.target);
      } catch (error) {
        if (run !== attempt.current) return;
        const failure = failureOf(error);
        if (failure === 'auth') {
          dispatch({ type: 'fail', failure: 'sign_in' });
          latest.current.onRequireAuth();
          return;
        }
        dispatch({ type: 'fail', ...failure });
        if (failure.failure === 'premium_required') latest.current.onRequirePremium();
        return;
      }
      if (run !== attempt.current) return;
      chatId.current = token.chat_id;
      let opened: CallAudio;
      try {
        opened = await all.openAudio(FIRST_OUTPUT_RATE);
      } catch (error) {
        if (run !== attempt.current) return;
        const failure = (error as { failure?: CallFailure }).failure ?? 'worklet_unsupported';
        dispatch({ type: 'fail', failure });
        return;
      }
      if (run !== attempt.current) {
        opened.close();
        return;
      }
      audio.current = opened;
      setPlayback(opened.playbackPath());
      void opened.resume().then((running) => {
        if (run === attempt.current && !running) dispatch({ type: 'audio_blocked', blocked: true });
      });
      const { muted, pushToTalk } = latest.current.view;
      opened.setMuted(muted);
      const created = new CallClient({
        url: token.url,
        resolve: (path) => socketUrl(path, API_BASE_URL, window.location.href),
        openSocket: all.openSocket,
        sink: opened.sink,
        onEvent: (event: CallEvent) => {
          if (run !== attempt.current) return;
          if (event.type === 'failed' && event.reason === 'invalid_token' && !retryingToken) {
            // The token expired while the microphone was being allowed: one new token.
            void start(true);
            return;
          }
          dispatch(event);
          if (event.type === 'ready') chatId.current = event.chat_id;
          if (event.type === 'end' || event.type === 'failed') {
            audio.current?.close();
            audio.current = null;
          }
          if (event.type === 'end') latest.current.onEnded(event.reason, chatId.current);
        },
      });
      client.current = created;
      if (muted) created.setMuted(true);
      if (pushToTalk) created.setPushToTalk(true);
      opened.onFrame((pcm) => created.sendFrame(pcm));
      created.connect();
      if (opened.canChooseOutput) void opened.outputs().then((list) => setOutputs(list.length > 1 ? list : []));
    },
    [teardown],
  );
  const begin = useCallback(() => void start(false), [start]);

  // The clock ticks between the server's `time` messages.
  const ticking = view.phase === 'live' || view.phase === 'reconnecting';
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  // Leaving the page ends the call.
  useEffect(
    () => () => {
      attempt.current++;
      const open = client.current;
      open?.hangup();
      client.current = null;
      // The page went away mid-call: what was said is in the chat now.
      if (open) latest.current.onEnded('hangup', chatId.current);
      audio.current?.close();
      audio.current = null;
    },
    [],
  );

  const setMuted = useCallback((muted: boolean) => {
    dispatch({ type: 'mute', muted });
    audio.current?.setMuted(muted);
    client.current?.setMuted(muted);
  }, []);

  const setPushToTalk = useCallback((on: boolean) => {
    storage.set(PUSH_TO_TALK_KEY, on ? '1' : '0');
    dispatch({ type: 'push_to_talk', on });
    client.current?.setPushToTalk(on);
  }, []);

  const talk = useCallback((down: boolean) => {
    dispatch({ type: 'talk', down });
    client.current?.talk(down);
  }, []);

  const hangup = useCallback(() => {
    if (client.current) client.current.hangup();
    else {
      attempt.current++;
      teardown();
      latest.current.onEnded('hangup', chatId.current);
    }
  }, [teardown]);

  const levels = useCallback(
    () => ({ mic: audio.current?.micLevel() ?? 0, play: audio.current?.playLevel() ?? 0 }),
    [],
  );

  /** A tap on "turn on the sound": inside the tap's handler, the browser lets the audio start. */
  const unblockAudio = useCallback(() => {
    void audio.current?.resume().then((running) => dispatch({ type: 'audio_blocked', blocked: !running }));
  }, []);

  const setOutput = useCallback((id: string) => audio.current?.setOutput(id) ?? Promise.resolve(), []);

  return {
    view,
    /** Starts (or starts again) the call; stable across renders. */
    start: begin,
    hangup,
    setMuted,
    setPushToTalk,
    talk,
    levels,
    /** How the reply plays (the WebRTC loopback or straight out), once the audio is open. */
    playback,
    outputs,
    setOutput,
    unblockAudio,
    chatId: () => chatId.current,
  };
}

export type CallControls = ReturnType<typeof useCall>;
