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

/** Set once Silero failed to start in this process: later calls go straight to WebRTC. */
let sileroBroken: string | null = null;

/**
 * A new detector for one call (each keeps its own state): Silero through sherpa-onnx-node
 * (`CALL_VAD=silero`, the default) or WebRTC's VAD (`CALL_VAD=webrtc`). When Silero cannot
 * start (no prebuilt sherpa-onnx binary for the platform, the model file missing), the
 * reason is logged once and every call uses WebRTC's VAD.
 */
export async function createVad(
  config: Pick<Config, 'CALL_VAD' | 'CALL_VAD_WEBRTC_MODE'>,
  log?: VadLog,
): Promise<VoiceActivityDetector> {
  if (config.CALL_VAD === 'silero' && sileroBroken === null) {
    try {
      return new SileroVad();
    } catch (error) {
      sileroBroken = error instanceof Error ? error.message : String(error);
      log?.warn(
        `Silero VAD (sherpa-onnx-node) cannot start: ${sileroBroken.split('\n')[0]}; calls use WebRTC's VAD instead`,
      );
    }
  }
  return WebRtcVad.create(config.CALL_VAD_WEBRTC_MODE);
}
