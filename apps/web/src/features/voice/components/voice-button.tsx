import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loader2, Pause, Play } from 'lucide-react';
import { useModal } from '../../../app/modals';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { ApiRequestError } from '../../../lib/api-client';
import { API_BASE_URL } from '../../../lib/config';
import { useAudioUrls } from '../api/request-audio';

export interface VoiceButtonProps {
  /** A character's text message. */
  messageId: string;
  className?: string;
}

type Status = 'idle' | 'loading' | 'playing' | 'paused';

/** Media URLs from the API are paths; a web app hosted apart from the API prefixes its base. */
const audioSrc = (url: string) => (url.startsWith('/') ? `${API_BASE_URL}${url}` : url);

/**
 * Play and pause the voice of a character's message (premium). The first press asks the
 * server, which prepares the voice in the background (asked again every second until it is
 * ready); the URL is cached per message. 402 opens the premium modal
 * (`?premium=1&from=voice`); a failed voice shows "Couldn't play the voice message".
 */
export function VoiceButton({ messageId, className = '' }: VoiceButtonProps) {
  const { t } = useTranslation();
  const modal = useModal();
  const audio = useRef<HTMLAudioElement>(null);
  const urls = useAudioUrls();
  const [status, setStatus] = useState<Status>('idle');
  const [src, setSrc] = useState<string | null>(() => urls.cached(messageId));
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
    if (element.getAttribute('src') !== audioSrc(url)) {
      element.src = audioSrc(url);
      setSrc(url);
    }
    try {
      await element.play();
    } catch {
      setStatus('idle');
      showAlert(t('voice.failed'), { type: 'error' });
    }
  };

  const onPress = async () => {
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

  const label = status === 'playing' ? t('voice.pause') : status === 'loading' ? t('voice.loading') : t('voice.play');
  return (
    <span className={`inline-flex items-center ${className}`}>
      <button
        type="button"
        onClick={() => void onPress()}
        aria-label={label}
        title={label}
        aria-busy={status === 'loading'}
        aria-pressed={status === 'playing'}
        data-testid="voice-button"
        data-status={status}
        className={`rounded-full p-1 hover:bg-white/10 hover:text-fg focus-visible:outline-2 focus-visible:outline-primary ${
          status === 'playing' ? 'text-primary' : 'text-muted'
        }`}
      >
        <Icon
          icon={status === 'loading' ? Loader2 : status === 'playing' ? Pause : Play}
          size="sm"
          className={status === 'loading' ? 'animate-spin' : ''}
        />
      </button>
      <audio
        ref={audio}
        preload="none"
        data-testid="voice-audio"
        onPlay={() => setStatus('playing')}
        onPause={() => setStatus((s) => (s === 'loading' ? s : 'paused'))}
        onEnded={() => setStatus('idle')}
        onError={() => {
          if (!audio.current?.getAttribute('src')) return;
          setStatus('idle');
          showAlert(t('voice.failed'), { type: 'error' });
        }}
        className="hidden"
      />
    </span>
  );
}
