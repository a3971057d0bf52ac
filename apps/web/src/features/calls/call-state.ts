import type { CallEndReason, CallState } from '@reverie/shared';
import type { CallEvent } from './protocol';

/**
 * The call screen's state, one pure reducer over the protocol client's events and the user's
 * actions: the phase (connecting, live, reconnecting, over), the server's turn state, the
 * last lines of captions, the clock, mute and push-to-talk.
 */

/** Why a call could not start or go on (the screen explains each and offers a way on). */
export type CallFailure =
  | 'sign_in'
  | 'premium_required'
  | 'call_in_progress'
  | 'call_minutes_exhausted'
  | 'stt_unavailable'
  /** Calls unavailable, by the server's reason (`/api/config`'s `calls.reason`, or the token's 409). */
  | 'stt_disabled'
  | 'stt_model_unavailable'
  | 'stt_provider_unreachable'
  | 'not_found'
  | 'mic_denied'
  | 'mic_missing'
  | 'mic_busy'
  | 'insecure'
  | 'worklet_unsupported'
  | 'version'
  | 'unreachable';

export type CallEnd = CallEndReason | 'connection_lost';

export type CallPhase = 'idle' | 'starting' | 'connecting' | 'live' | 'reconnecting' | 'ended' | 'failed';

export interface Caption {
  /** `${role}:${turn_id}`. */
  key: string;
  role: 'user' | 'bot';
  text: string;
  /** The user barged in: the line stops where the voice stopped. */
  cut: boolean;
}

export interface CallViewState {
  phase: CallPhase;
  state: CallState;
  captions: Caption[];
  elapsedS: number;
  secondsLeft: number | null;
  muted: boolean;
  pushToTalk: boolean;
  talking: boolean;
  endReason: CallEnd | null;
  failure: CallFailure | null;
  /** Seconds to wait before calling again (429 Retry-After). */
  retryAfterS: number | null;
  /** The last turn that failed but let the call go on (`notice`). */
  notice: string | null;
  /** The browser holds the audio until the user taps the page. */
  audioBlocked: boolean;
}

/** Caption lines kept on screen. */
export const CAPTION_LINES = 4;

export const initialCallState = (pushToTalk = false): CallViewState => ({
  phase: 'idle',
  state: 'listening',
  captions: [],
  elapsedS: 0,
  secondsLeft: null,
  muted: false,
  pushToTalk,
  talking: false,
  endReason: null,
  failure: null,
  retryAfterS: null,
  notice: null,
  audioBlocked: false,
});

export type CallAction =
  | CallEvent
  | { type: 'start' }
  | { type: 'fail'; failure: CallFailure; retryAfterS?: number | null }
  | { type: 'tick' }
  | { type: 'mute'; muted: boolean }
  | { type: 'push_to_talk'; on: boolean }
  | { type: 'talk'; down: boolean }
  | { type: 'audio_blocked'; blocked: boolean };

/** Joins a caption to its turn's line: a longer text of the same turn replaces it, a new sentence is appended. */
function addCaption(captions: Caption[], role: 'user' | 'bot', turn: string, text: string): Caption[] {
  const key = `${role}:${turn}`;
  const trimmed = text.trim();
  if (!trimmed) return captions;
  const existing = captions.find((line) => line.key === key);
  if (!existing) return [...captions, { key, role, text: trimmed, cut: false }].slice(-CAPTION_LINES);
  const joined =
    trimmed.startsWith(existing.text) || existing.text.endsWith(trimmed)
      ? trimmed.length >= existing.text.length
        ? trimmed
        : existing.text
      : `${existing.text} ${trimmed}`;
  return captions.map((line) => (line.key === key ? { ...line, text: joined } : line));
}

export function callReducer(state: CallViewState, action: CallAction): CallViewState {
  switch (action.type) {
    case 'start':
      return { ...initialCallState(state.pushToTalk), phase: 'starting', muted: state.muted };
    case 'connecting':
      return { ...state, phase: 'connecting' };
    case 'ready':
      return {
        ...state,
        phase: 'live',
        state: action.state,
        elapsedS: action.elapsed_s,
        secondsLeft: action.seconds_left,
        failure: null,
      };
    case 'state':
      return {
        ...state,
        state: action.state,
        notice: action.state === 'user_speaking' ? null : state.notice,
      };
    case 'caption':
      return { ...state, captions: addCaption(state.captions, action.role, action.turn_id, action.text) };
    case 'interrupt':
      return {
        ...state,
        captions: state.captions.map((line) => (line.key === `bot:${action.turn_id}` ? { ...line, cut: true } : line)),
      };
    case 'time':
      return { ...state, elapsedS: action.elapsed_s, secondsLeft: action.seconds_left };
    case 'notice':
      return { ...state, notice: action.code };
    case 'reconnecting':
      return state.phase === 'ended' ? state : { ...state, phase: 'reconnecting' };
    case 'end':
      return { ...state, phase: 'ended', endReason: action.reason, talking: false };
    case 'failed':
      return { ...state, phase: 'failed', failure: action.reason === 'invalid_token' ? 'unreachable' : action.reason };
    case 'fail':
      return { ...state, phase: 'failed', failure: action.failure, retryAfterS: action.retryAfterS ?? null };
    case 'tick':
      if (state.phase !== 'live' && state.phase !== 'reconnecting') return state;
      return {
        ...state,
        elapsedS: state.elapsedS + 1,
        secondsLeft: state.secondsLeft === null ? null : Math.max(0, state.secondsLeft - 1),
      };
    case 'mute':
      return { ...state, muted: action.muted };
    case 'push_to_talk':
      return { ...state, pushToTalk: action.on, talking: false };
    case 'talk':
      return state.pushToTalk ? { ...state, talking: action.down } : state;
    case 'audio_blocked':
      return { ...state, audioBlocked: action.blocked };
    case 'audio_start':
    case 'audio_end':
      return state;
  }
}

/** The state line's key (calls.state_*) for what the screen shows. */
export function stateKey(view: CallViewState): string {
  if (view.phase === 'idle') return 'ready';
  if (view.phase === 'starting' || view.phase === 'connecting') return 'connecting';
  if (view.phase === 'reconnecting') return 'reconnecting';
  if (view.phase === 'ended') return 'ended';
  if (view.phase === 'failed') return 'failed';
  if (view.muted && view.state === 'listening') return 'muted';
  if (view.pushToTalk && view.state === 'listening') return view.talking ? 'user_speaking' : 'hold_to_talk';
  return view.state;
}

/** Time left today is shown once it is this short. */
export const LOW_TIME_S = 5 * 60;
