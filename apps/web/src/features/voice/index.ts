export { VoiceButton, type VoiceButtonProps } from './components/voice-button';
export {
  AUDIO_POLL_MS,
  VoiceFailedError,
  audioProgressKey,
  audioUrlKey,
  pollAudioUrl,
  requestAudio,
  useAudioProgress,
  useAudioUrls,
} from './api/request-audio';
