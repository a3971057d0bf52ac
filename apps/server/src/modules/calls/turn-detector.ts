import type { TurnDetectorOptions, TurnEvent, VoiceActivityDetector } from '../../providers/vad/vad.js';

const SAMPLE_RATE = 16_000;

/**
 * Turns microphone audio into turns (docs/calls.md): frames of any length are re-chunked to
 * the VAD's frame size; speech starts once the user has spoken for `minSpeechMs` (a cough or
 * a knock is neither a turn nor an interruption) and ends after `endOfTurnMs` of silence; the
 * utterance keeps `preRollMs` from before the speech started. In push-to-talk mode the VAD is
 * not asked: `talk(true)` starts the turn and `talk(false)` ends it.
 */
export class TurnDetector {
  private readonly endOfTurnMs: number;
  /** The silence the VAD must report to end a turn: the configured one less the VAD's hangover. */
  private readonly endSilenceMs: number;
  private readonly minSpeechMs: number;
  private readonly preRollSamples: number;
  private readonly maxTurnMs: number;
  private readonly threshold: number;
  private readonly frameMs: number;
  /** Samples not yet given to the VAD (less than one VAD frame). */
  private pending: Int16Array = new Int16Array(0);
  /** The most recent audio before a possible utterance (the pre-roll). */
  private preRoll: Int16Array[] = [];
  private preRollLength = 0;
  /** The utterance being heard (candidate or confirmed speech). */
  private utterance: Int16Array[] = [];
  private phase: 'idle' | 'candidate' | 'speaking' = 'idle';
  private speechMs = 0;
  private silenceMs = 0;
  private turnMs = 0;
  /** Samples received in all (the clock of every event). */
  private received = 0;
  private pushToTalk = false;
  private talking = false;

  constructor(
    private readonly vad: VoiceActivityDetector,
    options: TurnDetectorOptions,
  ) {
    this.endOfTurnMs = options.endOfTurnMs;
    this.minSpeechMs = options.minSpeechMs;
    this.preRollSamples = Math.round(((options.preRollMs ?? 300) * SAMPLE_RATE) / 1000);
    this.maxTurnMs = options.maxTurnMs ?? 30_000;
    this.threshold = options.threshold ?? 0.5;
    this.frameMs = (vad.frameSamples * 1000) / SAMPLE_RATE;
    this.endSilenceMs = Math.max(this.frameMs, this.endOfTurnMs - (vad.hangoverMs ?? 0));
  }

  /** Milliseconds of audio received so far. */
  get receivedMs(): number {
    return (this.received * 1000) / SAMPLE_RATE;
  }

  /** True while an utterance is confirmed (speech_start sent, speech_end not yet). */
  get inSpeech(): boolean {
    return this.phase === 'speaking';
  }

  setPushToTalk(on: boolean): TurnEvent[] {
    if (on === this.pushToTalk) return [];
    const events = this.pushToTalk && this.talking ? this.talk(false) : [];
    this.pushToTalk = on;
    this.reset();
    return events;
  }

  /** Push-to-talk: the button pressed (the turn starts at once) or released (it ends). */
  talk(down: boolean): TurnEvent[] {
    if (!this.pushToTalk || down === this.talking) return [];
    this.talking = down;
    if (down) {
      this.utterance = [...this.preRoll];
      this.phase = 'speaking';
      this.turnMs = 0;
      this.speechMs = 0;
      this.silenceMs = 0;
      return [{ type: 'speech_start', atMs: this.receivedMs }];
    }
    return [this.end()];
  }

  /** Forgets any utterance in progress (muted, a new call pipeline). */
  reset(): void {
    this.pending = new Int16Array(0);
    this.preRoll = [];
    this.preRollLength = 0;
    this.utterance = [];
    this.phase = 'idle';
    this.speechMs = 0;
    this.silenceMs = 0;
    this.turnMs = 0;
    this.talking = false;
    this.vad.reset();
  }

  /** Feeds microphone audio (16 kHz mono PCM16); answers what happened in it. */
  push(samples: Int16Array): TurnEvent[] {
    const events: TurnEvent[] = [];
    if (this.pushToTalk) {
      this.received += samples.length;
      if (this.talking) {
        this.utterance.push(samples);
        this.turnMs += (samples.length * 1000) / SAMPLE_RATE;
        this.speechMs = this.turnMs;
        if (this.turnMs >= this.maxTurnMs) {
          this.talking = false;
          events.push(this.end());
        }
      } else this.keepPreRoll(samples);
      return events;
    }
    let data = samples;
    if (this.pending.length > 0) {
      data = new Int16Array(this.pending.length + samples.length);
      data.set(this.pending);
      data.set(samples, this.pending.length);
    }
    const size = this.vad.frameSamples;
    let offset = 0;
    for (; offset + size <= data.length; offset += size) {
      const frame = data.slice(offset, offset + size);
      this.received += size;
      const event = this.frame(frame);
      if (event) events.push(event);
    }
    this.pending = data.slice(offset);
    return events;
  }

  private frame(frame: Int16Array): TurnEvent | null {
    const speech = this.vad.speechProbability(frame) >= this.threshold;
    switch (this.phase) {
      case 'idle':
        if (!speech) {
          this.keepPreRoll(frame);
          return null;
        }
        this.phase = 'candidate';
        this.utterance = [...this.preRoll, frame];
        this.preRoll = [];
        this.preRollLength = 0;
        this.speechMs = this.frameMs;
        this.silenceMs = 0;
        this.turnMs = this.frameMs;
        return this.confirm();
      case 'candidate':
        this.add(frame, speech);
        if (speech) return this.confirm();
        // Too short, then quiet: a noise. Its audio becomes the pre-roll of what may follow.
        if (this.silenceMs >= Math.min(this.endOfTurnMs, 300)) {
          this.phase = 'idle';
          for (const piece of this.utterance) this.keepPreRoll(piece);
          this.utterance = [];
        }
        return null;
      case 'speaking':
        this.add(frame, speech);
        if (this.silenceMs >= this.endSilenceMs || this.turnMs >= this.maxTurnMs) return this.end();
        return null;
    }
  }

  /** A frame of a turn that has begun: kept, and counted as speech or as silence after it. */
  private add(frame: Int16Array, speech: boolean): void {
    this.utterance.push(frame);
    this.turnMs += this.frameMs;
    if (speech) {
      this.speechMs += this.frameMs;
      this.silenceMs = 0;
    } else this.silenceMs += this.frameMs;
  }

  private confirm(): TurnEvent | null {
    if (this.speechMs < this.minSpeechMs) return null;
    this.phase = 'speaking';
    return { type: 'speech_start', atMs: this.receivedMs };
  }

  /** Silence (ms) since the confirmed utterance's last speech; 0 while none is confirmed or in push-to-talk. */
  get trailingSilenceMs(): number {
    return this.phase === 'speaking' && !this.pushToTalk ? this.silenceMs : 0;
  }

  /**
   * The confirmed utterance so far, as `speech_end` would give it now: its trailing silence
   * beyond 200 ms left out. The same samples as the `speech_end` that follows when no speech
   * comes in between (a call recognises it early, while the end-of-turn silence runs).
   */
  utteranceSoFar(): Int16Array {
    const length = this.utterance.reduce((sum, piece) => sum + piece.length, 0);
    const trailing = Math.max(0, Math.round(((this.silenceMs - 200) * SAMPLE_RATE) / 1000));
    const pcm = new Int16Array(Math.max(0, length - trailing));
    let at = 0;
    for (const piece of this.utterance) {
      const take = Math.min(piece.length, pcm.length - at);
      if (take <= 0) break;
      pcm.set(take === piece.length ? piece : piece.subarray(0, take), at);
      at += take;
    }
    return pcm;
  }

  private end(): TurnEvent {
    // The trailing silence is not sent to recognition (a little of it is kept).
    const pcm = this.utteranceSoFar();
    const event: TurnEvent = { type: 'speech_end', atMs: this.receivedMs, pcm, speechMs: Math.round(this.speechMs) };
    this.utterance = [];
    this.phase = 'idle';
    this.speechMs = 0;
    this.silenceMs = 0;
    this.turnMs = 0;
    return event;
  }

  private keepPreRoll(samples: Int16Array): void {
    if (this.preRollSamples === 0) return;
    this.preRoll.push(samples);
    this.preRollLength += samples.length;
    while (this.preRollLength - this.preRoll[0]!.length >= this.preRollSamples) {
      this.preRollLength -= this.preRoll.shift()!.length;
    }
  }
}
