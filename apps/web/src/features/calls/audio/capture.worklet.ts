import { Downsampler, FrameAssembler, frameSamples } from './pcm';

/**
 * The microphone's AudioWorklet: mixes the input to mono, downsamples the context's rate to
 * the call's input rate (low-pass, then interpolation: pcm.ts) and posts 16-bit
 * little-endian PCM frames of `frameMs` (20 ms = 320 samples at 16 kHz), each with its RMS
 * level, to the main thread, which sends them up the socket.
 */
interface CaptureOptions {
  rate: number;
  frameMs: number;
}

// In the worklet's scope the base class is the global AudioWorkletProcessor.
const Base = (globalThis as unknown as { AudioWorkletProcessor: typeof AudioWorkletProcessorBase })
  .AudioWorkletProcessor;

class CaptureProcessor extends Base {
  private readonly downsampler: Downsampler;
  private readonly frames: FrameAssembler;
  private mono = new Float32Array(128);

  constructor(options?: { processorOptions?: unknown }) {
    super();
    const { rate, frameMs } = options?.processorOptions as CaptureOptions;
    this.downsampler = new Downsampler(sampleRate, rate);
    this.frames = new FrameAssembler(frameSamples(rate, frameMs));
  }

  override process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0];
    if (!channels || channels.length === 0 || !channels[0]) return true;
    const length = channels[0].length;
    if (this.mono.length !== length) this.mono = new Float32Array(length);
    const mono = this.mono;
    mono.set(channels[0]);
    for (let c = 1; c < channels.length; c++) {
      const channel = channels[c]!;
      for (let i = 0; i < length; i++) mono[i]! += channel[i]!;
    }
    if (channels.length > 1) for (let i = 0; i < length; i++) mono[i] = mono[i]! / channels.length;
    for (const frame of this.frames.push(this.downsampler.push(mono))) {
      this.port.postMessage(frame, [frame.pcm]);
    }
    return true;
  }
}

registerProcessor('reverie-call-capture', CaptureProcessor);
