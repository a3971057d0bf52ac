import { describe, expect, it } from 'vitest';
import { CALL_END_REASONS, CALL_STATES } from '@reverie/shared';
import {
  CAPTION_LINES,
  callReducer,
  initialCallState,
  stateKey,
  type CallAction,
  type CallEnd,
  type CallFailure,
  type CallViewState,
} from './call-state';
import { ready } from './test-helpers';

const run = (actions: CallAction[], from: CallViewState = initialCallState()) => actions.reduce(callReducer, from);

describe('callReducer', () => {
  it('goes from connecting to live with the server’s clock and state', () => {
    const view = run([{ type: 'start' }, { type: 'connecting' }]);
    expect(stateKey(view)).toBe('connecting');
    const live = callReducer(view, ready({ elapsed_s: 12, seconds_left: 600, state: 'thinking' }) as CallAction);
    expect(live).toMatchObject({ phase: 'live', state: 'thinking', elapsedS: 12, secondsLeft: 600 });
    expect(stateKey(live)).toBe('thinking');
    expect(run([{ type: 'tick' }, { type: 'tick' }], live)).toMatchObject({ elapsedS: 14, secondsLeft: 598 });
    expect(run([{ type: 'time', elapsed_s: 30, seconds_left: 100 }], live)).toMatchObject({
      elapsedS: 30,
      secondsLeft: 100,
    });
  });

  it('keeps the last caption lines; a turn’s sentences join, a cut turn is marked', () => {
    let view = run([ready() as CallAction]);
    view = run(
      [
        { type: 'caption', role: 'user', turn_id: 'u1', message_id: null, text: 'Hi there', final: true },
        { type: 'caption', role: 'bot', turn_id: 'b1', message_id: null, text: 'Hello!', final: true },
        { type: 'caption', role: 'bot', turn_id: 'b1', message_id: null, text: 'How are you?', final: true },
      ],
      view,
    );
    expect(view.captions.map((c) => c.text)).toEqual(['Hi there', 'Hello! How are you?']);
    // A cumulative caption replaces the line rather than repeating it.
    view = run(
      [{ type: 'caption', role: 'bot', turn_id: 'b1', message_id: null, text: 'Hello! How are you? I', final: false }],
      view,
    );
    expect(view.captions[1]!.text).toBe('Hello! How are you? I');
    view = run([{ type: 'interrupt', turn_id: 'b1', played_ms: 900 }], view);
    expect(view.captions[1]!.cut).toBe(true);
    for (let i = 2; i < 10; i++) {
      view = run(
        [{ type: 'caption', role: 'user', turn_id: `u${i}`, message_id: null, text: `line ${i}`, final: true }],
        view,
      );
    }
    expect(view.captions).toHaveLength(CAPTION_LINES);
    expect(view.captions.at(-1)!.text).toBe('line 9');
  });

  it('shows mute and push-to-talk in the state line', () => {
    const live = run([ready() as CallAction]);
    expect(stateKey(run([{ type: 'mute', muted: true }], live))).toBe('muted');
    const ptt = run([{ type: 'push_to_talk', on: true }], live);
    expect(stateKey(ptt)).toBe('hold_to_talk');
    expect(stateKey(run([{ type: 'talk', down: true }], ptt))).toBe('user_speaking');
    expect(run([{ type: 'talk', down: true }], live).talking).toBe(false);
    expect(stateKey(run([{ type: 'state', state: 'speaking' }], ptt))).toBe('speaking');
  });

  it('reconnects, ends and fails', () => {
    const live = run([ready() as CallAction]);
    expect(stateKey(run([{ type: 'reconnecting', attempt: 1 }], live))).toBe('reconnecting');
    const ended = run([{ type: 'end', reason: 'minutes_exhausted' }], live);
    expect(ended).toMatchObject({ phase: 'ended', endReason: 'minutes_exhausted' });
    expect(run([{ type: 'reconnecting', attempt: 2 }], ended).phase).toBe('ended');
    expect(run([{ type: 'tick' }], ended).elapsedS).toBe(0);
    expect(run([{ type: 'fail', failure: 'call_minutes_exhausted', retryAfterS: 3600 }])).toMatchObject({
      phase: 'failed',
      failure: 'call_minutes_exhausted',
      retryAfterS: 3600,
    });
    expect(run([{ type: 'failed', reason: 'invalid_token' }]).failure).toBe('unreachable');
    // A new start keeps the settings, clears the rest.
    const again = run([{ type: 'mute', muted: true }, { type: 'start' }], ended);
    expect(again).toMatchObject({ phase: 'starting', muted: true, captions: [], endReason: null });
  });
});

describe('texts', () => {
  it('has a text for every state, failure and end the screen can show', async () => {
    const { calls } = (await import('@reverie/shared/locales/en.json')) as unknown as {
      calls: Record<string, string>;
    };
    const states = ['ready', 'connecting', 'reconnecting', 'ended', 'failed', 'muted', 'hold_to_talk', ...CALL_STATES];
    const failures: CallFailure[] = [
      'sign_in',
      'premium_required',
      'call_in_progress',
      'call_minutes_exhausted',
      'stt_unavailable',
      'stt_disabled',
      'stt_model_unavailable',
      'stt_provider_unreachable',
      'not_found',
      'mic_denied',
      'mic_missing',
      'mic_busy',
      'insecure',
      'worklet_unsupported',
      'version',
      'unreachable',
    ];
    const ends: CallEnd[] = [...CALL_END_REASONS, 'connection_lost'];
    const keys = [
      ...states.map((s) => `state_${s}`),
      ...failures.flatMap((f) => [`fail_${f}_title`, `fail_${f}_body`]),
      ...ends.map((e) => `end_${e}`),
    ];
    expect(keys.filter((key) => !calls[key])).toEqual([]);
  });
});
