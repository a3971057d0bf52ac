import '../texts';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from '../../../lib/i18n';
import { useQueryClient } from '@tanstack/react-query';
import { Pause, Play } from 'lucide-react';
import { useModal } from '../../../lib/modals';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { ApiRequestError } from '../../../lib/api-client';
import { mediaSrc } from '../../../lib/media';
import { audioProgressKey, audioUrlKey, useAudioProgress, useAudioUrls } from '../api/request-audio';

export interface VoiceButtonProps {
  /** A character's text message. */
  messageId: string;
  className?: string;
}

type Status = 'idle' | 'loading' | 'playing' | 'paused';

/** Seconds as m:ss (voice messages are minutes long at most). */
export function formatClock(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

const RING_RADIUS = 11;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;

/**
 * The ring around the button while the voice is prepared: filled to the server's estimate
 * (determinate), or a turning arc when there is none (indeterminate).
 */
function ProgressRing({ progress, label }: { progress: number | null; label: string }) {
  const percent = progress === null ? null : Math.round(progress * 100);
  return (
    <svg
      viewBox="0 0 26 26"
      role="progressbar"
      aria-label={label}
      aria-valuemin={percent === null ? undefined : 0}
      aria-valuemax={percent === null ? undefined : 100}
      aria-valuenow={percent ?? undefined}
      data-testid="voice-progress"
      data-progress={percent ?? 'indeterminate'}
      className={`pointer-events-none absolute inset-0 h-full w-full -rotate-90 ${percent === null ? 'animate-spin' : ''}`}
    >
      <circle cx="13" cy="13" r={RING_RADIUS} fill="none" strokeWidth="2" className="stroke-white/10" />
      <circle
        cx="13"
        cy="13"
        r={RING_RADIUS}
        fill="none"
        strokeWidth="2"
        strokeLinecap="round"
        className="stroke-primary transition-[stroke-dashoffset] duration-1000 ease-linear"
        strokeDasharray={RING_LENGTH}
        strokeDashoffset={percent === null ? RING_LENGTH * 0.7 : RING_LENGTH * (1 - Math.max(0.04, percent / 100))}
      />
    </svg>
  );
}

/**
 * Play and pause the voice of a character's message (premium). The first press asks the
 * server, which prepares the voice in the background (asked again every second until it is
 * ready): a ring around the button and a status text show how far it is (the server's
 * estimate; a turning ring when it gives none). Once ready, a playback bar shows the position
 * and the duration, and seeks by tap, drag or the arrow keys (a native slider). The URL is
 * cached per message. 402 opens the premium modal (`?premium=1&from=voice`); a failed voice
 * shows "Couldn't play the voice message".
 */
export function VoiceButton({ messageId, className = '' }: VoiceButtonProps) {
  const { t, i18n } = useTranslation();
  const modal = useModal();
  const queryClient = useQueryClient();
  const audio = useRef<HTMLAudioElement>(null);
  const urls = useAudioUrls();
  const progress = useAudioProgress(messageId);
  const [status, setStatus] = useState<Status>('idle');
  const [src, setSrc] = useState<string | null>(null);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  // The polling goes on after unmounting (its URL is cached for later); only state updates stop.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const play = async (url: string) => {
    const element = audio.current;
    if (!element) return;
    if (element.getAttribute('src') !== mediaSrc(url)) {
      element.src = mediaSrc(url);
      setSrc(url);
    }
    try {
      await element.play();
    } catch {
      setStatus('idle');
      showAlert(t('voice.failed'), { type: 'error' });
    }
  };

  // The <audio> element comes with the first press: one per reply of a long chat costs.
  const [armed, setArmed] = useState(false);
  const onPress = async () => {
    if (!armed) flushSync(() => setArmed(true));
    const element = audio.current;
    if (status === 'loading' || !element) return;
    if (status === 'playing') {
      element.pause();
      return;
    }
    const known = src ?? urls.cached(messageId);
    if (known) {
      await play(known);
      return;
    }
    // A new attempt starts without an estimate (a loop already running keeps its own).
    if (!queryClient.isFetching({ queryKey: audioUrlKey(messageId) })) {
      queryClient.setQueryData(audioProgressKey(messageId), { progress: null });
    }
    setStatus('loading');
    try {
      const url = await urls.load(messageId);
      if (mounted.current) await play(url);
    } catch (error) {
      if (!mounted.current) return;
      setStatus('idle');
      if (error instanceof ApiRequestError && error.status === 402) {
        modal.open('premium', { from: 'voice' });
        return;
      }
      const code = error instanceof ApiRequestError ? error.code : undefined;
      showAlert(code && code !== 'internal_error' ? t(`errors.${code}`, t('voice.failed')) : t('voice.failed'), {
        type: 'error',
      });
    }
  };

  const seek = (event: ChangeEvent<HTMLInputElement>) => {
    const element = audio.current;
    const to = Number(event.target.value);
    if (!element || !Number.isFinite(to)) return;
    element.currentTime = to;
    setPosition(to);
  };

  const loading = status === 'loading';
  const percent =
    progress === null
      ? null
      : new Intl.NumberFormat(i18n.language === 'ch' ? 'zh-CN' : i18n.language, { style: 'percent' }).format(
          Math.round(progress * 100) / 100,
        );
  const statusText = loading
    ? percent === null
      ? t('voice.preparing')
      : t('voice.preparing_progress', { percent })
    : '';
  const label = status === 'playing' ? t('voice.pause') : loading ? t('voice.loading') : t('voice.play');
  const known = Number.isFinite(duration) && duration > 0;
  return (
    // Nothing positioned while idle (the ring and its box come with loading), and the status
    // empty rather than visually hidden: one of these is under every reply of a long chat,
    // and a positioned box is painted on its own (docs/chat.md "Long chats").
    <span className={`inline-flex items-center ${className}`} data-testid="voice">
      <span className={`inline-flex h-7 w-7 shrink-0 items-center justify-center ${loading ? 'relative' : ''}`}>
        <button
          type="button"
          onClick={() => void onPress()}
          aria-label={label}
          title={label}
          aria-busy={loading}
          aria-pressed={status === 'playing'}
          data-testid="voice-button"
          data-status={status}
          className={`rounded-full p-1 hover:bg-white/10 hover:text-fg focus-visible:outline-2 focus-visible:outline-primary ${
            status === 'playing' || loading ? 'text-primary' : 'text-muted'
          }`}
        >
          <Icon icon={status === 'playing' ? Pause : Play} size="sm" />
        </button>
        {loading && <ProgressRing progress={progress} label={t('voice.loading')} />}
      </span>
      <span role="status" className={loading ? 'ml-1.5 text-xs text-muted' : undefined} data-testid="voice-status">
        {statusText}
      </span>
      {src && !loading && (
        <span className="ml-1.5 inline-flex items-center gap-2" data-testid="voice-player">
          <input
            type="range"
            min={0}
            max={known ? duration : 0}
            step={0.1}
            value={Math.min(position, known ? duration : 0)}
            onChange={seek}
            disabled={!known}
            aria-label={t('voice.seek')}
            aria-valuetext={t('voice.position', { position: formatClock(position), duration: formatClock(duration) })}
            data-testid="voice-seek"
            className="h-1.5 w-24 cursor-pointer accent-[var(--color-primary)] disabled:cursor-default sm:w-36"
          />
          <span className="text-xs whitespace-nowrap text-muted tabular-nums" data-testid="voice-time">
            {formatClock(position)} / {known ? formatClock(duration) : '–:––'}
          </span>
        </span>
      )}
      {armed && (
        <audio
          ref={audio}
          preload="none"
          data-testid="voice-audio"
          onPlay={() => setStatus('playing')}
          onPause={() => setStatus((s) => (s === 'loading' ? s : 'paused'))}
          onEnded={() => {
            setStatus('idle');
            setPosition(0);
          }}
          onLoadedMetadata={(event) => setDuration(event.currentTarget.duration)}
          onDurationChange={(event) => setDuration(event.currentTarget.duration)}
          onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
          onError={() => {
            if (!audio.current?.getAttribute('src')) return;
            setStatus('idle');
            showAlert(t('voice.failed'), { type: 'error' });
          }}
          className="hidden"
        />
      )}
    </span>
  );
}
