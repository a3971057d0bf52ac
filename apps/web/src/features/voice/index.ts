export { VoiceButton, type VoiceButtonProps } from './components/voice-button';
export {
  AUDIO_POLL_MS,
  VoiceFailedError,
  cachedAudioUrl,
  clearAudioCache,
  loadAudioUrl,
  requestAudio,
} from './api/request-audio';
