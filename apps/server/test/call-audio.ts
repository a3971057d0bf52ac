import WebSocket from 'ws';
import type { CallServerMessage } from '@reverie/shared';
import { resample } from '../src/lib/pcm.js';
import { EspeakTtsProvider } from '../src/providers/tts/espeak.js';
import type { VoiceActivityDetector } from '../src/providers/vad/vad.js';

/**
 * Audio for call tests and the calls benchmark: speech made with espeak-ng at run time,
 * silence, a noise burst, all 16 kHz mono PCM16; a small energy-threshold voice activity
 * detector (the test double of Silero and WebRTC VAD); a WebSocket call client.
 */

export const RATE = 16_000;

/**
 * Speech when a 30 ms frame's RMS level passes a threshold. Crude (a cough is "speech"), which
 * is what the turn detector's minimum speech length must cope with.
 */
export class EnergyVad implements VoiceActivityDetector {
  readonly name = 'energy';
  readonly frameSamples = 480;
  constructor(private readonly threshold = 400) {}
  speechProbability(frame: Int16Array): number {
    let sum = 0;
    for (const sample of frame) sum += sample * sample;
    return Math.sqrt(sum / frame.length) >= this.threshold ? 1 : 0;
  }
  reset(): void {}
  close(): void {}
}

const espeak = new EspeakTtsProvider();

/** `text` said by espeak-ng (American English), at 16 kHz. */
export async function speech(text: string): Promise<Int16Array> {
  const said = await espeak.synthesise({ text, voice: 'en-us', language: 'en' });
  if (said.format !== 'pcm16') throw new Error('espeak-ng answers PCM');
  return resample(said.samples, said.sampleRate, RATE);
}

export const silence = (ms: number) => new Int16Array(Math.round((RATE * ms) / 1000));

/** White noise (a knock, a cough) of this length, loud. */
export function noise(ms: number, amplitude = 8000): Int16Array {
  const out = new Int16Array(Math.round((RATE * ms) / 1000));
  let seed = 12345;
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out[i] = Math.round(((seed / 0x7fffffff) * 2 - 1) * amplitude);
  }
  return out;
}

export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Frames of 20 ms (320 samples), as a browser's AudioWorklet sends them. */
export function frames(samples: Int16Array, frameSamples = 320): Int16Array[] {
  const out: Int16Array[] = [];
  for (let at = 0; at < samples.length; at += frameSamples) out.push(samples.slice(at, at + frameSamples));
  return out;
}

export type ServerMessage = CallServerMessage;

/** A call's client side over a real WebSocket: records every message and audio frame. */
export class CallClient {
  readonly messages: ServerMessage[] = [];
  /** Binary frames down, with the time each arrived (performance.now) and the turn they belong to. */
  readonly audio: { at: number; bytes: number; turn: string | null }[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private currentTurn: string | null = null;
  private waiters: (() => void)[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(
    readonly socket: WebSocket,
    private readonly options: { autoFlush?: boolean } = {},
  ) {
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        this.notify();
        resolve(code);
      }),
    );
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        this.audio.push({ at: performance.now(), bytes: (data as Buffer).length, turn: this.currentTurn });
      } else {
        const message = JSON.parse(String(data)) as ServerMessage;
        this.messages.push(message);
        if (message.type === 'audio_start') this.currentTurn = message.turn_id;
        if (message.type === 'interrupt') {
          this.currentTurn = null;
          // A browser flushes its playback and says how much of the turn it played.
          if (this.options.autoFlush !== false) {
            const played = this.audio.filter((frame) => frame.turn === message.turn_id).length * 20;
            this.json({ type: 'flushed', turn_id: message.turn_id, played_ms: Math.max(0, played - 300) });
          }
        }
      }
      this.notify();
    });
  }

  static open(url: string, options: { autoFlush?: boolean } = {}): CallClient {
    return new CallClient(new WebSocket(url), options);
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  json(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  send(samples: Int16Array): void {
    this.socket.send(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  }

  /** Sends audio in 20 ms frames, `speed` times faster than real time (1: real time). */
  async stream(samples: Int16Array, speed = 1): Promise<void> {
    const started = performance.now();
    let sentMs = 0;
    for (const frame of frames(samples)) {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      this.send(frame);
      sentMs += (frame.length * 1000) / RATE;
      const wait = started + sentMs / speed - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Waits for a message (after `from`, an index in `messages`) matching `match`. */
  async waitFor<T extends ServerMessage['type']>(
    type: T,
    match: (message: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    { timeoutMs = 10_000, from = 0 } = {},
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = this.messages
        .slice(from)
        .find((m): m is Extract<ServerMessage, { type: T }> => m.type === type && match(m as never));
      if (found) return found;
      if (this.closeCode !== null) throw new Error(`closed (${this.closeCode}) before a ${type} message`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`timed out waiting for a ${type} message`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }

  /** Drops the connection without a closing handshake (a lost network). */
  drop(): void {
    this.socket.terminate();
  }
}
