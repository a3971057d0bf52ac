import { z } from 'zod';
import {
  CALL_CLOSE_CODES,
  CALL_INPUT_FRAME_MS,
  CALL_INPUT_SAMPLE_RATE,
  CALL_PROTOCOL_VERSION,
  type CallClientMessage,
  type CallEndReason,
  type CallServerMessage,
} from '@reverie/shared';
import type { SttProvider } from '../../providers/stt/index.js';
import type { TtsProvider } from '../../providers/tts/index.js';
import { CallSession, type CallReplies, type TurnTimings } from './call-session.js';
import type { CallAdmission, CallSettings } from './calls.service.js';

/** The WebSocket as the connection uses it (the `ws` package's socket). */
export interface CallSocket {
  readonly readyState: number;
  send(data: string | Buffer, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The largest binary frame taken (500 ms of 16 kHz PCM16) and the largest control message. */
export const MAX_AUDIO_FRAME_BYTES = 16_000;
export const MAX_CONTROL_BYTES = 4_096;

/** The client's control messages (contract/calls.ts CallClientMessage), checked. */
const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('mute'), muted: z.boolean() }),
  z.object({ type: z.literal('ptt'), mode: z.boolean() }),
  z.object({ type: z.literal('talk'), down: z.boolean() }),
  z.object({ type: z.literal('flushed'), turn_id: z.string().max(64), played_ms: z.number().min(0).max(3_600_000) }),
  z.object({ type: z.literal('played'), turn_id: z.string().max(64), played_ms: z.number().min(0).max(3_600_000) }),
  z.object({ type: z.literal('hangup') }),
]) satisfies z.ZodType<CallClientMessage>;

export interface CallStore {
  /** Renews the lease and writes the seconds; false when this connection no longer owns a live call. */
  renew(seconds: number): Promise<boolean>;
  /** The socket dropped: resumable for the grace period. */
  release(seconds: number): Promise<boolean>;
  /** Recognition worked (the call's seconds count) or failed (while it never worked, the call counts none). */
  recognition(outcome: 'failed' | 'worked'): Promise<void>;
  end(reason: CallEndReason, seconds: number): Promise<boolean>;
  sweepLater(): void;
}

export interface CallConnectionOptions {
  socket: CallSocket;
  admission: Extract<CallAdmission, { ok: true }>;
  settings: Required<CallSettings>;
  stt: SttProvider;
  tts: TtsProvider;
  replies: CallReplies;
  store: CallStore;
  log: { info(object: object, message?: string): void; warn(object: object, message?: string): void };
  onTimings?(timings: TurnTimings): void;
}

const OPEN = 1;

/**
 * One socket of a call (docs/calls.md "Protocol v1"): `ready` first, microphone frames and
 * control messages in, the pipeline's messages and paced reply audio out; the lease renewed and
 * the seconds written every few seconds, `time` told, heartbeat pings; the call ends (`end`,
 * then close 1000) on hang-up, when the day's minutes run out or at shutdown. A socket that
 * drops leaves the call resumable; one replaced by another connection closes with 4002.
 */
export class CallConnection {
  private readonly session: CallSession;
  private readonly startedAt = performance.now();
  private timers: NodeJS.Timeout[] = [];
  private finished = false;
  private alive = true;
  private resolveClosed!: () => void;
  readonly closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));

  constructor(private readonly options: CallConnectionOptions) {
    const { admission, settings } = options;
    this.session = new CallSession({
      userId: admission.call.userId,
      chatId: admission.call.chatId,
      locale: admission.locale,
      voice: admission.voice,
      stt: options.stt,
      tts: options.tts,
      vad: admission.vad,
      replies: options.replies,
      output: { json: (message) => this.send(message), audio: (pcm) => this.sendAudio(pcm) },
      endOfTurnMs: settings.endOfTurnMs,
      minSpeechMs: settings.minSpeechMs,
      outputSampleRate: settings.outputSampleRate,
      leadMs: settings.leadMs,
      ttsTimeoutMs: settings.ttsTimeoutMs,
      log: options.log,
      onTimings: options.onTimings,
      onRecognition: (outcome) =>
        void options.store.recognition(outcome).catch((error: unknown) => {
          options.log.warn({ err: error, outcome }, 'could not record the recognition of a call');
        }),
    });
  }

  /** Seconds the call has lasted: from its first connection, gaps included. */
  private elapsedS(): number {
    return this.options.admission.call.elapsedS + (performance.now() - this.startedAt) / 1000;
  }

  private secondsLeft(): number {
    const allowance = this.options.settings.minutesPerDay * 60;
    return Math.max(0, Math.floor(allowance - this.options.admission.usedBeforeS - this.elapsedS()));
  }

  private billed(): number {
    return Math.floor(this.elapsedS());
  }

  private send(message: CallServerMessage): void {
    if (this.options.socket.readyState === OPEN) this.options.socket.send(JSON.stringify(message));
  }

  private sendAudio(pcm: Buffer): void {
    if (this.options.socket.readyState === OPEN) this.options.socket.send(pcm);
  }

  start(): void {
    const { socket, admission, settings } = this.options;
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => void this.dropped());
    socket.on('error', () => undefined);
    socket.on('pong', () => (this.alive = true));
    this.send({
      type: 'ready',
      version: CALL_PROTOCOL_VERSION,
      call_id: admission.call.id,
      chat_id: admission.call.chatId,
      input: { format: 'pcm16', sample_rate: CALL_INPUT_SAMPLE_RATE, frame_ms: CALL_INPUT_FRAME_MS },
      output: { format: 'pcm16', sample_rate: settings.outputSampleRate },
      resume: admission.resumeKey,
      resume_grace_s: settings.resumeGraceS,
      elapsed_s: Math.floor(this.elapsedS()),
      seconds_left: this.secondsLeft(),
      state: 'listening',
    });
    if (this.secondsLeft() <= 0) {
      void this.end('minutes_exhausted');
      return;
    }
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(settings.renewEveryMs, () => void this.renew());
    every(settings.timeEveryMs, () =>
      this.send({ type: 'time', elapsed_s: Math.floor(this.elapsedS()), seconds_left: this.secondsLeft() }),
    );
    // The day's allowance, checked every second.
    const untilEmpty = () => {
      const left = this.secondsLeft();
      if (left <= 0) void this.end('minutes_exhausted');
      else {
        const timer = setTimeout(untilEmpty, Math.min(left * 1000, 1000));
        timer.unref();
        this.timers.push(timer);
      }
    };
    untilEmpty();
    every(settings.pingEveryMs, () => {
      if (!this.alive) {
        // No answer to the last ping: the socket is gone (the call stays resumable).
        socket.terminate();
        return;
      }
      this.alive = false;
      socket.ping();
    });
  }

  private protocolError(reason: string): void {
    this.options.log.info({ reason }, 'a call socket broke the protocol');
    this.options.socket.close(CALL_CLOSE_CODES.protocol_error, reason);
  }

  private onMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    if (this.finished) return;
    const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (isBinary) {
      if (buffer.length > MAX_AUDIO_FRAME_BYTES || buffer.length % 2 !== 0) {
        this.protocolError('bad audio frame');
        return;
      }
      // A copy: the socket's buffer may not be aligned for 16-bit samples.
      const samples = new Int16Array(buffer.length / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = buffer.readInt16LE(i * 2);
      this.session.audio(samples);
      return;
    }
    if (buffer.length > MAX_CONTROL_BYTES) {
      this.protocolError('message too large');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(buffer.toString('utf8'));
    } catch {
      this.protocolError('not JSON');
      return;
    }
    const message = ClientMessageSchema.safeParse(parsed);
    if (!message.success) {
      this.protocolError('unknown message');
      return;
    }
    if (message.data.type === 'hangup') {
      void this.end('hangup');
      return;
    }
    this.session.control(message.data);
  }

  private async renew(): Promise<void> {
    if (this.finished) return;
    try {
      if (!(await this.options.store.renew(this.billed()))) this.replaced();
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not renew a call');
    }
  }

  private stopTimers(): void {
    for (const timer of this.timers) {
      clearInterval(timer);
      clearTimeout(timer);
    }
    this.timers = [];
  }

  /** The call ends here: the pipeline stops, the row is ended, `end` is sent, the socket closes (1000). */
  async end(reason: CallEndReason): Promise<void> {
    if (this.finished) return this.closed;
    this.finished = true;
    this.stopTimers();
    await this.session.close();
    const seconds = this.billed();
    try {
      await this.options.store.end(reason, seconds);
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not end a call');
    }
    this.send({ type: 'end', reason });
    if (this.options.socket.readyState === OPEN) this.options.socket.close(1000, reason);
    this.resolveClosed();
  }

  /** Another connection took the call (4002): nothing is written, the new owner holds the row. */
  replaced(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    void this.session.close().finally(() => this.resolveClosed());
    if (this.options.socket.readyState === OPEN) this.options.socket.close(CALL_CLOSE_CODES.replaced, 'replaced');
  }

  /** The socket closed without an end: the turn in flight is cut, the call waits for a resume. */
  private async dropped(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    await this.session.close();
    try {
      if (await this.options.store.release(this.billed())) this.options.store.sweepLater();
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not release a dropped call');
    }
    this.resolveClosed();
  }
}
