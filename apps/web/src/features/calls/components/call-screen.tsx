import '../texts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Hand, Headphones, Mic, MicOff, PhoneOff, Speaker } from 'lucide-react';
import { Icon } from '../../../components/ui/icon';
import { LOW_TIME_S, stateKey, type CallViewState } from '../call-state';
import { formatDuration } from '../format';
import type { PlaybackPath } from '../audio/loopback';
import { CallButton, CallProblem } from './call-problem';

export interface CallCharacter {
  name: string;
  avatarUrl: string | null;
}

export interface CallScreenProps {
  character: CallCharacter;
  view: CallViewState;
  /** The current RMS levels (read every animation frame): the microphone's and the reply's. */
  levels: () => { mic: number; play: number };
  /** Output devices to choose from; the control is hidden when there are none to choose. */
  outputs: { id: string; label: string }[];
  /** How the reply plays (docs/calls.md "Echo"), shown as `data-playback`. */
  playback?: PlaybackPath | null;
  onMute: (muted: boolean) => void;
  onPushToTalk: (on: boolean) => void;
  onTalk: (down: boolean) => void;
  onHangup: () => void;
  onOutput: (id: string) => void;
  /** The browser holds the audio until a tap: the tap's handler starts it. */
  onUnblockAudio: () => void;
  /** Try the call again (after a failure or an end). */
  onRetry: () => void;
  /** Back to the chat without calling. */
  onBack: () => void;
  /** Shown before the call starts when the browser needs a tap to start audio. */
  onStart?: () => void;
  /** 402: open the premium offer. */
  onUpgrade: () => void;
  /** A guest: sign up or log in. */
  onSignIn: () => void;
}

/** Level (RMS 0…1) to a 0…1 loudness for the animation: speech RMS is mostly 0.02–0.3. */
const loudness = (rms: number) => Math.min(1, Math.sqrt(Math.max(0, rms)) * 1.8);

function ControlButton({
  label,
  title = label,
  onClick,
  pressed,
  children,
  testId,
  danger = false,
}: {
  label: string;
  /** The full name (aria-label and tooltip) when the label under the button is short. */
  title?: string;
  onClick: () => void;
  pressed?: boolean;
  children: ReactNode;
  testId: string;
  danger?: boolean;
}) {
  return (
    <span className="flex flex-col items-center gap-1.5">
      <button
        type="button"
        onClick={onClick}
        aria-label={title}
        title={title}
        aria-pressed={pressed}
        data-testid={testId}
        className={`relative flex items-center justify-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary ${
          danger
            ? 'h-16 w-16 bg-red-600 text-white hover:bg-red-500'
            : pressed
              ? 'h-14 w-14 bg-fg text-bg'
              : 'h-14 w-14 bg-white/10 text-fg hover:bg-white/20'
        }`}
      >
        {children}
      </button>
      <span className="text-xs text-muted" aria-hidden="true">
        {label}
      </span>
    </span>
  );
}

/**
 * The call: the character's picture with a halo that follows the reply's loudness, the name,
 * where the call stands, the last lines of captions, the clock (and the time left today once
 * it runs short), mute, the audio output where the browser lets a page choose, push-to-talk
 * with its hold-to-talk button, and hang up. Failures and the end show their explanation here.
 */
export function CallScreen({
  character,
  view,
  levels,
  outputs,
  playback,
  onMute,
  onPushToTalk,
  onTalk,
  onHangup,
  onOutput,
  onUnblockAudio,
  onRetry,
  onBack,
  onStart,
  onUpgrade,
  onSignIn,
}: CallScreenProps) {
  const { t } = useTranslation();
  const halo = useRef<HTMLDivElement>(null);
  const micRing = useRef<HTMLSpanElement>(null);
  const [output, setOutput] = useState(0);
  const key = stateKey(view);
  const speaking = view.phase === 'live' && view.state === 'speaking';
  const inCall =
    view.phase === 'live' || view.phase === 'reconnecting' || view.phase === 'connecting' || view.phase === 'starting';

  // The animation reads the levels every frame and styles the elements directly (no re-render).
  useEffect(() => {
    if (!inCall) return;
    let frame = 0;
    let play = 0;
    let mic = 0;
    const step = () => {
      const now = levels();
      play = play * 0.7 + loudness(now.play) * 0.3;
      mic = mic * 0.7 + loudness(now.mic) * 0.3;
      halo.current?.style.setProperty('--level', play.toFixed(3));
      micRing.current?.style.setProperty('--level', mic.toFixed(3));
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [inCall, levels]);

  const lowTime = view.secondsLeft !== null && view.secondsLeft <= LOW_TIME_S && view.phase === 'live';
  const stateText = t(`calls.state_${key}`, { name: character.name });
  const nextOutput = () => {
    const next = (output + 1) % outputs.length;
    setOutput(next);
    onOutput(outputs[next]!.id);
  };
  const outputLabel = (index: number) => outputs[index]?.label || t('calls.output_device', { number: index + 1 });

  return (
    <div
      className="relative flex h-dvh flex-col overflow-hidden bg-bg text-fg"
      data-testid="call-screen"
      data-phase={view.phase}
      data-state={view.state}
      data-playback={playback ?? ''}
    >
      {character.avatarUrl && (
        <img
          src={character.avatarUrl}
          alt=""
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 h-full w-full scale-110 object-cover opacity-25 blur-3xl"
        />
      )}
      <div className="relative z-10 flex items-center justify-between px-4 pt-[max(env(safe-area-inset-top),1rem)]">
        <span className="text-sm text-muted tabular-nums" data-testid="call-timer" aria-label={t('calls.elapsed')}>
          {inCall || view.phase === 'ended' ? formatDuration(view.elapsedS) : ''}
        </span>
        {lowTime && (
          <span className="rounded-full bg-amber-500/20 px-3 py-1 text-xs text-amber-200" data-testid="call-time-left">
            {t('calls.time_left', { time: formatDuration(view.secondsLeft ?? 0) })}
          </span>
        )}
        {(inCall || view.phase === 'idle') && (
          <button
            type="button"
            onClick={() => onPushToTalk(!view.pushToTalk)}
            aria-pressed={view.pushToTalk}
            data-testid="call-ptt-toggle"
            className={`flex items-center gap-1.5 rounded-full px-3 py-1.5 text-xs font-semibold ${
              view.pushToTalk ? 'bg-fg text-bg' : 'bg-white/10 text-fg hover:bg-white/20'
            }`}
          >
            <Icon icon={Hand} size="sm" />
            {t('calls.push_to_talk')}
          </button>
        )}
      </div>

      <main className="relative z-10 flex min-h-0 flex-1 flex-col items-center justify-center gap-5 px-4">
        <div className="relative my-4 flex items-center justify-center" ref={halo} data-testid="call-avatar">
          <span
            aria-hidden="true"
            className={`absolute inset-0 rounded-full bg-primary/40 transition-opacity duration-300 ${speaking ? 'opacity-100' : 'opacity-0'}`}
            style={{ transform: 'scale(calc(1 + var(--level, 0) * 0.35))' }}
          />
          <span
            aria-hidden="true"
            className={`absolute inset-0 rounded-full bg-primary/25 transition-opacity duration-300 ${speaking ? 'opacity-100' : 'opacity-0'}`}
            style={{ transform: 'scale(calc(1.06 + var(--level, 0) * 0.6))' }}
          />
          {character.avatarUrl ? (
            <img
              src={character.avatarUrl}
              alt={character.name}
              className={`relative h-40 w-40 rounded-full object-cover shadow-2xl ring-4 sm:h-56 sm:w-56 ${
                view.phase === 'live' && view.state === 'thinking' ? 'animate-pulse ring-white/30' : 'ring-white/10'
              }`}
            />
          ) : (
            <span className="relative flex h-40 w-40 items-center justify-center rounded-full bg-surface text-5xl font-semibold sm:h-56 sm:w-56">
              {character.name.slice(0, 1)}
            </span>
          )}
        </div>
        <div className="flex flex-col items-center gap-1 text-center">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl" data-testid="call-name">
            {character.name}
          </h1>
          <p role="status" className="text-sm text-muted" data-testid="call-state" data-key={key}>
            {view.phase === 'failed' ? '' : stateText}
          </p>
        </div>

        {view.phase === 'idle' && onStart && (
          <div className="flex flex-col items-center gap-2">
            <CallButton onClick={onStart} testId="call-start">
              {t('calls.start')}
            </CallButton>
            <p className="max-w-xs text-center text-xs text-muted">{t('calls.start_hint')}</p>
          </div>
        )}

        {view.phase === 'failed' && view.failure && (
          <CallProblem
            failure={view.failure}
            name={character.name}
            retryAfterS={view.retryAfterS}
            actions={
              <>
                {view.failure === 'premium_required' ? (
                  <CallButton onClick={onUpgrade} testId="call-upgrade">
                    {t('calls.upgrade')}
                  </CallButton>
                ) : view.failure === 'sign_in' ? (
                  <CallButton onClick={onSignIn} testId="call-sign-in">
                    {t('calls.sign_in')}
                  </CallButton>
                ) : view.failure === 'call_minutes_exhausted' || view.failure === 'not_found' ? null : (
                  <CallButton onClick={onRetry} testId="call-retry">
                    {t('calls.try_again')}
                  </CallButton>
                )}
                <CallButton onClick={onBack} quiet testId="call-back">
                  {t('calls.back_to_chat')}
                </CallButton>
              </>
            }
          />
        )}

        {view.phase === 'ended' && (
          <div className="flex flex-col items-center gap-3 text-center" role="alert" data-testid="call-ended">
            <p className="max-w-sm text-muted" data-reason={view.endReason ?? ''}>
              {t(`calls.end_${view.endReason ?? 'hangup'}`, { name: character.name })}
            </p>
            <div className="flex flex-wrap justify-center gap-3">
              <CallButton onClick={onBack} testId="call-back">
                {t('calls.back_to_chat')}
              </CallButton>
              <CallButton onClick={onRetry} quiet testId="call-retry">
                {t('calls.call_again')}
              </CallButton>
            </div>
          </div>
        )}

        {inCall && view.captions.length > 0 && (
          <section
            aria-label={t('calls.captions')}
            aria-live="polite"
            className="flex w-full max-w-md flex-col gap-1.5"
            data-testid="call-captions"
          >
            {view.captions.map((line) => (
              <p
                key={line.key}
                data-role={line.role}
                className={`line-clamp-3 rounded-2xl px-3 py-1.5 text-sm ${
                  line.role === 'user' ? 'self-end bg-white/10 text-fg' : 'self-start bg-black/30 text-fg'
                }`}
              >
                <span className="sr-only">{line.role === 'user' ? t('calls.you') : character.name}: </span>
                {line.cut ? `${line.text.replace(/[.!?…。！？\s]+$/u, '')}…` : line.text}
              </p>
            ))}
          </section>
        )}

        {inCall && view.audioBlocked && (
          <CallButton onClick={onUnblockAudio} testId="call-unblock-audio">
            {t('calls.enable_audio')}
          </CallButton>
        )}
        {view.phase === 'live' && view.muted && (
          <p className="text-sm text-amber-200" data-testid="call-muted">
            {t('calls.muted_banner', { name: character.name })}
          </p>
        )}
        {view.phase === 'live' && view.notice && !view.muted && (
          <p className="text-sm text-amber-200" data-testid="call-notice">
            {t(view.notice === 'not_understood' ? 'calls.notice_not_understood' : 'calls.notice_failed')}
          </p>
        )}
      </main>

      {inCall && (
        <div className="relative z-10 flex flex-col items-center gap-5 px-4 pb-[max(env(safe-area-inset-bottom),1.5rem)]">
          {view.pushToTalk ? (
            <button
              type="button"
              data-testid="call-talk"
              aria-pressed={view.talking}
              disabled={view.phase !== 'live' || view.muted}
              onPointerDown={(event) => {
                event.currentTarget.setPointerCapture?.(event.pointerId);
                onTalk(true);
              }}
              onPointerUp={() => onTalk(false)}
              onPointerCancel={() => onTalk(false)}
              onKeyDown={(event) => {
                if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
                  event.preventDefault();
                  onTalk(true);
                }
              }}
              onKeyUp={(event) => {
                if (event.key === ' ' || event.key === 'Enter') onTalk(false);
              }}
              onContextMenu={(event) => event.preventDefault()}
              className={`w-full max-w-xs touch-none rounded-3xl py-5 text-base font-semibold select-none disabled:opacity-40 ${
                view.talking ? 'bg-primary text-on-primary' : 'bg-white/10 text-fg hover:bg-white/15'
              }`}
            >
              {view.talking ? t('calls.release_to_send') : t('calls.hold_to_talk')}
            </button>
          ) : (
            <p className="flex max-w-sm items-center gap-2 text-center text-xs text-muted">
              <Icon icon={Headphones} size="sm" className="shrink-0" />
              {t('calls.headphones_hint', { name: character.name })}
            </p>
          )}
          <div className="flex items-end justify-center gap-6">
            <ControlButton
              label={view.muted ? t('calls.unmute') : t('calls.mute')}
              onClick={() => onMute(!view.muted)}
              pressed={view.muted}
              testId="call-mute"
            >
              <span
                ref={micRing}
                aria-hidden="true"
                className={`absolute inset-0 rounded-full border-2 border-primary/70 ${view.muted ? 'hidden' : ''}`}
                style={{ transform: 'scale(calc(1 + var(--level, 0) * 0.3))', opacity: 'var(--level, 0)' }}
              />
              <Icon icon={view.muted ? MicOff : Mic} size="lg" />
            </ControlButton>
            <ControlButton label={t('calls.hangup')} onClick={onHangup} testId="call-hangup" danger>
              <Icon icon={PhoneOff} size="lg" />
            </ControlButton>
            {outputs.length > 1 && (
              <ControlButton
                label={t('calls.output_short')}
                title={t('calls.output', { device: outputLabel(output) })}
                onClick={nextOutput}
                testId="call-output"
              >
                <Icon icon={Speaker} size="lg" />
              </ControlButton>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
