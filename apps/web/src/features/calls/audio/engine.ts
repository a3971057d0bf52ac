import { CALL_INPUT_FRAME_MS, CALL_INPUT_SAMPLE_RATE } from '@reverie/shared';
import captureUrl from './capture.worklet.ts?worker&url';
import playbackUrl from './playback.worklet.ts?worker&url';
import { routePlayback, type PlaybackPath } from './loopback';
import type { CallAudioSink } from '../protocol';
import type { CallFailure } from '../call-state';

/**
 * The browser's side of the call's audio: one AudioContext, the microphone through the
 * capture worklet (16 kHz PCM16 frames of 20 ms) and the reply through the playback
 * worklet's ring buffer, played through a WebRTC loopback inside the page where the browser
 * has one (loopback.ts: so that the echo canceller hears it), else straight to the speakers.
 * Loaded only by the call screen (a lazy chunk); the worklets are bundled by Vite as separate
 * files (`?worker&url`).
 */
export interface CallAudio {
  sink: CallAudioSink;
  /** Microphone frames (while the call sends them). */
  onFrame(listener: (pcm: ArrayBuffer) => void): void;
  /** RMS levels (0…1) of the last microphone frame and of what plays now. */
  micLevel(): number;
  playLevel(): number;
  setMuted(muted: boolean): void;
  /** Output devices the page may pick from (speaker, earpiece, headset), when the browser allows choosing. */
  outputs(): Promise<{ id: string; label: string }[]>;
  setOutput(id: string): Promise<void>;
  readonly canChooseOutput: boolean;
  /** How the reply plays: through the WebRTC loopback or straight to the speakers. */
  playbackPath(): PlaybackPath;
  /** Starts the audio; false when the browser keeps it suspended until a tap on the page. */
  resume(): Promise<boolean>;
  close(): void;
}

/** A microphone or audio failure the screen can explain. */
export class CallAudioError extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure);
  }
}

function micFailure(error: unknown): CallFailure {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'mic_denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return 'mic_missing';
  return 'mic_busy';
}

type SinkContext = AudioContext & { setSinkId?: (id: string) => Promise<void> };

/** What this browser lacks for a call, or null. */
export function audioSupportProblem(): CallFailure | null {
  if (typeof window === 'undefined') return 'worklet_unsupported';
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia)
    return window.isSecureContext ? 'mic_missing' : 'insecure';
  if (typeof AudioContext === 'undefined' || typeof AudioWorkletNode === 'undefined') return 'worklet_unsupported';
  return null;
}

/** Asks for the microphone (echo cancellation, noise suppression and gain control on) and starts the worklets. */
export async function openCallAudio(outputRate: number): Promise<CallAudio> {
  const problem = audioSupportProblem();
  if (problem) throw new CallAudioError(problem);
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
  } catch (error) {
    throw new CallAudioError(micFailure(error));
  }
  const context: SinkContext = new AudioContext({ latencyHint: 'interactive' });
  try {
    await Promise.all([context.audioWorklet.addModule(captureUrl), context.audioWorklet.addModule(playbackUrl)]);
  } catch {
    stream.getTracks().forEach((track) => track.stop());
    void context.close();
    throw new CallAudioError('worklet_unsupported');
  }

  const source = context.createMediaStreamSource(stream);
  const capture = new AudioWorkletNode(context, 'reverie-call-capture', {
    numberOfInputs: 1,
    numberOfOutputs: 0,
    channelCount: 1,
    channelCountMode: 'explicit',
    processorOptions: { rate: CALL_INPUT_SAMPLE_RATE, frameMs: CALL_INPUT_FRAME_MS },
  });
  source.connect(capture);
  const playback = new AudioWorkletNode(context, 'reverie-call-playback', {
    numberOfInputs: 0,
    numberOfOutputs: 1,
    outputChannelCount: [1],
    processorOptions: { rate: outputRate },
  });
  const route = await routePlayback(context, playback);
  // What plays through the loopback is read on the received track (the worklet's own level otherwise).
  let heard: AnalyserNode | null = null;
  let heardSource: MediaStreamAudioSourceNode | null = null;
  const samples = new Float32Array(1024);
  if (route.loopback) {
    heardSource = context.createMediaStreamSource(route.loopback.stream);
    heard = context.createAnalyser();
    heard.fftSize = samples.length;
    heardSource.connect(heard);
  }
  const heardLevel = (): number | null => {
    if (!heard || route.path !== 'loopback') return null;
    heard.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.sqrt(sum / samples.length);
  };

  let frameListener: ((pcm: ArrayBuffer) => void) | null = null;
  let mic = 0;
  capture.port.onmessage = (event: MessageEvent<{ pcm: ArrayBuffer; level: number }>) => {
    mic = event.data.level;
    frameListener?.(event.data.pcm);
  };

  let level = 0;
  const played = new Map<string, number>();
  let flushId = 0;
  const flushes = new Map<number, (playedMs: number) => void>();
  let rate = outputRate;
  playback.port.onmessage = (
    event: MessageEvent<
      | { type: 'progress'; turn: string | null; played_ms: number; level: number }
      | { type: 'flushed'; id: number; turn: string; played_ms: number }
    >,
  ) => {
    const message = event.data;
    if (message.type === 'progress') {
      level = message.level;
      if (message.turn) played.set(message.turn, message.played_ms);
    } else {
      played.set(message.turn, message.played_ms);
      flushes.get(message.id)?.(message.played_ms);
      flushes.delete(message.id);
    }
  };

  const sink: CallAudioSink = {
    start(turn, sampleRate) {
      played.set(turn, 0);
      if (played.size > 8) played.delete(played.keys().next().value!);
      if (sampleRate !== rate) {
        rate = sampleRate;
        playback.port.postMessage({ type: 'rate', rate });
      }
    },
    push(turn, pcm) {
      playback.port.postMessage({ type: 'push', turn, pcm }, [pcm]);
    },
    flush(turn) {
      level = 0;
      const id = ++flushId;
      return new Promise<number>((resolve) => {
        flushes.set(id, resolve);
        // The worklet answers within a render quantum; should it not, the last report stands.
        setTimeout(() => {
          if (flushes.delete(id)) resolve(played.get(turn) ?? 0);
        }, 150);
        playback.port.postMessage({ type: 'flush', turn, id });
      });
    },
    playedMs: (turn) => played.get(turn) ?? 0,
  };

  const canChooseOutput = () =>
    route.loopback ? route.loopback.canChooseOutput : typeof context.setSinkId === 'function';
  return {
    sink,
    onFrame: (listener) => {
      frameListener = listener;
    },
    micLevel: () => mic,
    playLevel: () => heardLevel() ?? level,
    setMuted(muted) {
      stream.getAudioTracks().forEach((track) => (track.enabled = !muted));
      if (muted) mic = 0;
    },
    get canChooseOutput() {
      return canChooseOutput();
    },
    playbackPath: () => route.path,
    async outputs() {
      if (!canChooseOutput()) return [];
      const devices = await navigator.mediaDevices.enumerateDevices();
      return devices
        .filter((device) => device.kind === 'audiooutput' && device.deviceId !== 'communications')
        .map((device) => ({ id: device.deviceId, label: device.label }));
    },
    async setOutput(id) {
      const output = id === 'default' ? '' : id;
      // Both: should the loopback fail later, the direct path plays on the same device.
      if (route.loopback) await route.loopback.setSinkId(output);
      if (typeof context.setSinkId === 'function') await context.setSinkId(output).catch(() => {});
    },
    async resume() {
      // Some browsers (Safari) only start audio inside a tap's handler: then this stays suspended.
      await Promise.race([context.resume(), new Promise((resolve) => setTimeout(resolve, 600))]);
      return context.state === 'running';
    },
    close() {
      frameListener = null;
      capture.port.onmessage = null;
      playback.port.onmessage = null;
      stream.getTracks().forEach((track) => track.stop());
      route.loopback?.close();
      heardSource?.disconnect();
      source.disconnect();
      capture.disconnect();
      playback.disconnect();
      void context.close();
    },
  };
}
