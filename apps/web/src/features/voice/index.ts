export { VoiceButton, type VoiceButtonProps } from './components/voice-button';
export {
  AUDIO_POLL_MS,
  VoiceFailedError,
  audioUrlKey,
  pollAudioUrl,
  requestAudio,
  useAudioUrls,
} from './api/request-audio';
