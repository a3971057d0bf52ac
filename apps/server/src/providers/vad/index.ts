import type { Config } from '../../config.js';
import { SileroVad } from './silero.js';
import type { VoiceActivityDetector } from './vad.js';
import { WebRtcVad } from './webrtc.js';

export type { TurnDetectorOptions, TurnEvent, VoiceActivityDetector } from './vad.js';
export { SileroVad } from './silero.js';
export { WebRtcVad } from './webrtc.js';

export interface VadLog {
  warn(msg: string): void;
}

/** Why Silero failed to start in this process, per way of making it: later calls go straight to WebRTC. */
const sileroBroken = new WeakMap<() => VoiceActivityDetector, string>();
const defaultSilero = () => new SileroVad();

/**
 * A new detector for one call (each keeps its own state): Silero through sherpa-onnx-node
 * (`CALL_VAD=silero`, the default) or WebRTC's VAD (`CALL_VAD=webrtc`). When Silero cannot
 * start (no prebuilt sherpa-onnx binary for the platform, the model file missing), the
 * reason is logged once and every call uses WebRTC's VAD.
 */
export async function createVad(
  config: Pick<Config, 'CALL_VAD' | 'CALL_VAD_WEBRTC_MODE'>,
  log?: VadLog,
  /** Makes the Silero detector (tests give one that fails). */
  silero: () => VoiceActivityDetector = defaultSilero,
): Promise<VoiceActivityDetector> {
  if (config.CALL_VAD === 'silero' && !sileroBroken.has(silero)) {
    try {
      return silero();
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      sileroBroken.set(silero, reason);
      log?.warn(`Silero VAD (sherpa-onnx-node) cannot start: ${reason}; calls use WebRTC's VAD instead`);
    }
  }
  return WebRtcVad.create(config.CALL_VAD_WEBRTC_MODE);
}
