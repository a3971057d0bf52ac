import { PlaybackBuffer } from './playback-buffer';
import { rms } from './pcm';

/**
 * The reply audio's AudioWorklet: a ring buffer at the server's rate (playback-buffer.ts)
 * read at the context's rate. Messages in: `push` (a turn's PCM16), `flush` (barge-in: drop
 * everything at once and answer how much of the turn was played), `rate`. Out, about every
 * 50 ms: `progress` (the turn playing, its played milliseconds, what is queued, the RMS
 * level of what was just played).
 */
type Incoming =
  | { type: 'push'; turn: string; pcm: ArrayBuffer }
  | { type: 'flush'; turn: string; id: number }
  | { type: 'rate'; rate: number };

const Base = (globalThis as unknown as { AudioWorkletProcessor: typeof AudioWorkletProcessorBase })
  .AudioWorkletProcessor;

/** Render quanta between two progress reports (128 samples each: ≈ 50 ms at 48 kHz). */
const REPORT_EVERY = 18;

class PlaybackProcessor extends Base {
  private readonly buffer: PlaybackBuffer;
  private quanta = 0;
  private levelSum = 0;
  private levelCount = 0;
  private wasPlaying = false;

  constructor(options?: { processorOptions?: unknown }) {
    super();
    const { rate } = options?.processorOptions as { rate: number };
    this.buffer = new PlaybackBuffer(rate, sampleRate);
    this.port.onmessage = (event: MessageEvent<Incoming>) => {
      const message = event.data;
      if (message.type === 'push') this.buffer.push(message.turn, message.pcm);
      else if (message.type === 'rate') this.buffer.setSourceRate(message.rate);
      else if (message.type === 'flush') {
        const played = this.buffer.flush(message.turn);
        this.port.postMessage({ type: 'flushed', id: message.id, turn: message.turn, played_ms: played });
      }
    };
  }

  override process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0];
    if (!output || !output[0]) return true;
    const first = output[0];
    const produced = this.buffer.render(first);
    for (let c = 1; c < output.length; c++) output[c]!.set(first);
    const level = produced > 0 ? rms(first) : 0;
    this.levelSum += level * level;
    this.levelCount++;
    const playing = produced > 0;
    if (++this.quanta >= REPORT_EVERY || playing !== this.wasPlaying) {
      const turn = this.buffer.currentTurn();
      this.port.postMessage({
        type: 'progress',
        turn,
        played_ms: turn ? this.buffer.playedMs(turn) : 0,
        buffered_ms: this.buffer.bufferedMs,
        level: Math.sqrt(this.levelSum / Math.max(1, this.levelCount)),
      });
      this.buffer.tidy();
      this.quanta = 0;
      this.levelSum = 0;
      this.levelCount = 0;
      this.wasPlaying = playing;
    }
    return true;
  }
}

registerProcessor('reverie-call-playback', PlaybackProcessor);
