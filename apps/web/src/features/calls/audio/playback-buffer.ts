import { pcm16ToFloat } from './pcm';

/**
 * The playback worklet's ring buffer, kept apart from the worklet so it can be tested: it
 * holds the reply audio at the server's rate (`output.sample_rate`), is read at the audio
 * context's rate with linear interpolation, and knows which turn every sample belongs to, so
 * it can say how much of a turn was actually played (`played`, `flushed`).
 */
export class PlaybackBuffer {
  private ring: Float32Array;
  /** Absolute sample indices: everything before `written` was enqueued; `read` is fractional. */
  private written = 0;
  private read = 0;
  private readonly turns = new Map<string, { start: number; end: number }>();

  constructor(
    private sourceRate: number,
    private readonly outputRate: number,
    seconds = 30,
  ) {
    this.ring = new Float32Array(Math.max(1024, Math.ceil(sourceRate * seconds)));
  }

  /** A new source rate (the next turn's `audio_start`); what is queued is dropped. */
  setSourceRate(rate: number): void {
    if (rate === this.sourceRate || !(rate > 0)) return;
    this.sourceRate = rate;
    this.read = this.written;
  }

  get buffered(): number {
    return Math.max(0, this.written - Math.floor(this.read));
  }

  /** Milliseconds of queued audio not yet played. */
  get bufferedMs(): number {
    return (this.buffered * 1000) / this.sourceRate;
  }

  push(turn: string, pcm: ArrayBuffer): void {
    const samples = pcm16ToFloat(pcm);
    if (samples.length === 0) return;
    if (this.buffered + samples.length + 2 > this.ring.length) this.grow(this.buffered + samples.length + 2);
    const size = this.ring.length;
    for (let i = 0; i < samples.length; i++) this.ring[(this.written + i) % size] = samples[i]!;
    const span = this.turns.get(turn);
    if (span) span.end = this.written + samples.length;
    else this.turns.set(turn, { start: this.written, end: this.written + samples.length });
    this.written += samples.length;
  }

  /** Fills `out` (at the context's rate) from the queue; silence where it runs dry. Answers the samples taken. */
  render(out: Float32Array): number {
    const step = this.sourceRate / this.outputRate;
    const size = this.ring.length;
    let produced = 0;
    for (let i = 0; i < out.length; i++) {
      const index = Math.floor(this.read);
      if (index >= this.written) {
        out[i] = 0;
        continue;
      }
      const frac = this.read - index;
      const a = this.ring[index % size]!;
      const b = index + 1 < this.written ? this.ring[(index + 1) % size]! : a;
      out[i] = a + (b - a) * frac;
      this.read = Math.min(this.read + step, this.written);
      produced++;
    }
    return produced;
  }

  /** Milliseconds of `turn` played so far. */
  playedMs(turn: string): number {
    const span = this.turns.get(turn);
    if (!span) return 0;
    const played = Math.min(Math.max(Math.floor(this.read) - span.start, 0), span.end - span.start);
    return Math.round((played * 1000) / this.sourceRate);
  }

  /** The turn whose audio is playing now (or the last one played), or null. */
  currentTurn(): string | null {
    const position = Math.floor(this.read);
    let last: string | null = null;
    for (const [turn, span] of this.turns) {
      if (position < span.end && position >= span.start) return turn;
      if (span.start <= position) last = turn;
    }
    return last;
  }

  /** Drops everything queued at once; answers how much of `turn` was played. */
  flush(turn: string): number {
    const played = this.playedMs(turn);
    // Whatever was queued is not played: every turn ends where the playback stopped.
    const position = Math.floor(this.read);
    for (const span of this.turns.values()) {
      span.start = Math.min(span.start, position);
      span.end = Math.min(span.end, position);
    }
    this.read = this.written;
    this.forgetOld();
    return played;
  }

  /** Forgets turns that are fully played (keeps the last one for its final `played`). */
  private forgetOld(): void {
    const position = Math.floor(this.read);
    const entries = [...this.turns.entries()];
    for (const [turn, span] of entries.slice(0, -1)) if (span.end <= position) this.turns.delete(turn);
  }

  private grow(needed: number): void {
    let size = this.ring.length;
    while (size < needed) size *= 2;
    const bigger = new Float32Array(size);
    const start = Math.floor(this.read);
    for (let i = start; i < this.written; i++) bigger[i % size] = this.ring[i % this.ring.length]!;
    this.ring = bigger;
  }

  /** Called now and then by the worklet to keep the turn map small. */
  tidy(): void {
    this.forgetOld();
  }
}
