import {
  CALL_CLOSE_CODES,
  CALL_END_REASONS,
  CALL_PROTOCOL_VERSION,
  CALL_STATES,
  type CallClientMessage,
  type CallEndReason,
  type CallServerMessage,
  type CallState,
} from '@reverie/shared';

/**
 * The call's protocol client (version 1, packages/shared/src/contract/calls.ts; docs/calls.md):
 * one WebSocket carrying microphone frames up and reply audio and JSON events down. Pure of
 * Web Audio: the socket, the playback and the timers come in, so the tests drive it with a
 * fake socket.
 */

/** What the client needs of a WebSocket (the browser's satisfies it). */
export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string | ArrayBuffer): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

/** Where reply audio goes (the playback worklet in the browser, a recorder in tests). */
export interface CallAudioSink {
  /** A turn's audio begins, at this rate. */
  start(turn: string, sampleRate: number): void;
  push(turn: string, pcm: ArrayBuffer): void;
  /** Stop playing at once and drop what is queued; answers the milliseconds of `turn` that were played. */
  flush(turn: string): Promise<number>;
  /** Milliseconds of `turn` played so far. */
  playedMs(turn: string): number;
}

/** What happened, for the state reducer (call-state.ts). */
export type CallEvent =
  | { type: 'connecting' }
  | Extract<CallServerMessage, { type: 'ready' }>
  | Extract<CallServerMessage, { type: 'state' | 'caption' | 'time' | 'notice' | 'audio_start' | 'audio_end' }>
  | { type: 'interrupt'; turn_id: string; played_ms: number }
  | { type: 'reconnecting'; attempt: number }
  | { type: 'end'; reason: CallEndReason | 'connection_lost'; detail?: string }
  /** The socket was refused before the call began: the token is stale (4001) or the server is unreachable. */
  | { type: 'failed'; reason: 'invalid_token' | 'unreachable' | 'version' };

/** Parses a text frame from the server; null for anything that is not a known, well-formed message. */
export function parseServerMessage(text: string): CallServerMessage | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const m = data as Record<string, unknown>;
  const str = (key: string) => typeof m[key] === 'string';
  const num = (key: string) => typeof m[key] === 'number' && Number.isFinite(m[key]);
  const state = (value: unknown): value is CallState => CALL_STATES.includes(value as CallState);
  switch (m.type) {
    case 'ready': {
      const input = m.input as Record<string, unknown> | undefined;
      const output = m.output as Record<string, unknown> | undefined;
      const ok =
        num('version') &&
        str('call_id') &&
        str('chat_id') &&
        str('resume') &&
        num('resume_grace_s') &&
        num('elapsed_s') &&
        num('seconds_left') &&
        state(m.state) &&
        !!input &&
        typeof input.sample_rate === 'number' &&
        typeof input.frame_ms === 'number' &&
        !!output &&
        typeof output.sample_rate === 'number' &&
        output.sample_rate > 0;
      return ok ? (m as unknown as CallServerMessage) : null;
    }
    case 'state':
      return state(m.state) ? (m as unknown as CallServerMessage) : null;
    case 'caption':
      return (m.role === 'user' || m.role === 'bot') && str('turn_id') && str('text') && typeof m.final === 'boolean'
        ? ({ ...m, message_id: typeof m.message_id === 'string' ? m.message_id : null } as CallServerMessage)
        : null;
    case 'audio_start':
      return str('turn_id') && num('sample_rate') && (m.sample_rate as number) > 0
        ? (m as unknown as CallServerMessage)
        : null;
    case 'audio_end':
    case 'interrupt':
      return str('turn_id') ? (m as unknown as CallServerMessage) : null;
    case 'time':
      return num('elapsed_s') && num('seconds_left') ? (m as unknown as CallServerMessage) : null;
    case 'notice':
      return str('code') ? ({ ...m, detail: str('detail') ? m.detail : '' } as CallServerMessage) : null;
    case 'end':
      return {
        type: 'end',
        reason: CALL_END_REASONS.includes(m.reason as CallEndReason) ? (m.reason as CallEndReason) : 'error',
        ...(str('detail') ? { detail: m.detail as string } : {}),
      };
    default:
      return null;
  }
}

/** A path of the API (`/api/audio_chat/ws?…`) as a WebSocket URL on the API's origin. */
export function socketUrl(path: string, apiBase: string, pageUrl: string): string {
  const url = new URL(/^wss?:\/\//.test(path) ? path : `${apiBase}${path}`, pageUrl);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.toString();
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  now(): number;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

export interface CallClientOptions {
  /** The token's `url` (relative to the API's origin). */
  url: string;
  /** Turns an API path into the socket's URL (socketUrl with the app's API base). */
  resolve: (path: string) => string;
  openSocket: (url: string) => SocketLike;
  sink: CallAudioSink;
  onEvent: (event: CallEvent) => void;
  timers?: Timers;
  /** How often `played` is reported while the character speaks. */
  playedEveryMs?: number;
}

/** Delays between reconnection attempts (the last repeats until the grace period is over). */
export const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 3000];
/** After `hangup`, how long to wait for the server's `end` before closing the socket ourselves. */
export const HANGUP_WAIT_MS = 2000;

export class CallClient {
  private socket: SocketLike | null = null;
  private readonly timers: Timers;
  private resumeKey: string | null = null;
  private graceMs = 0;
  private droppedAt = 0;
  private attempt = 0;
  private retryTimer: unknown = null;
  private hangupTimer: unknown = null;
  private playedTimer: unknown = null;
  /** The turn whose binary frames are arriving, and a turn that was interrupted (its frames are dropped). */
  private turn: string | null = null;
  private interrupted: string | null = null;
  /** The turn being played (reported with `played`), and the last value sent. */
  private playingTurn: string | null = null;
  private lastPlayed = -1;
  private live = false;
  private over = false;
  private muted = false;
  private ptt = false;
  private talking = false;
  /** Frames received and sent, for the state and the browser tests. */
  framesIn = 0;
  framesOut = 0;

  constructor(private readonly options: CallClientOptions) {
    this.timers = options.timers ?? realTimers;
  }

  connect(): void {
    this.options.onEvent({ type: 'connecting' });
    this.open(this.options.url);
  }

  get isLive(): boolean {
    return this.live && !this.over;
  }

  /** A microphone frame (PCM16, 20 ms); dropped while muted, not live, or in push-to-talk with the button up. */
  sendFrame(pcm: ArrayBuffer): void {
    if (!this.isLive || this.muted || (this.ptt && !this.talking)) return;
    if (this.socket?.readyState !== OPEN) return;
    this.socket.send(pcm);
    this.framesOut++;
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.send({ type: 'mute', muted });
  }

  setPushToTalk(mode: boolean): void {
    this.ptt = mode;
    if (!mode) this.talking = false;
    this.send({ type: 'ptt', mode });
  }

  talk(down: boolean): void {
    if (!this.ptt || this.talking === down) return;
    this.talking = down;
    this.send({ type: 'talk', down });
  }

  /** Ends the call: `hangup`, then the server's `end` closes the socket (or we do, after a wait). */
  hangup(): void {
    if (this.over) return;
    this.over = true;
    this.clearRetry();
    if (this.socket?.readyState === OPEN) {
      this.send({ type: 'hangup' }, true);
      this.hangupTimer = this.timers.setTimeout(() => this.finish({ type: 'end', reason: 'hangup' }), HANGUP_WAIT_MS);
    } else {
      this.finish({ type: 'end', reason: 'hangup' });
    }
  }

  /** Tears everything down without a word to the server (the page went away). */
  dispose(): void {
    this.over = true;
    this.clearRetry();
    this.stopPlayedReports();
    if (this.hangupTimer !== null) this.timers.clearTimeout(this.hangupTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000);
    }
  }

  private send(message: CallClientMessage, evenWhenOver = false): void {
    if ((this.over && !evenWhenOver) || this.socket?.readyState !== OPEN) return;
    this.socket.send(JSON.stringify(message));
  }

  private open(url: string): void {
    let socket: SocketLike;
    try {
      socket = this.options.openSocket(this.options.resolve(url));
    } catch {
      // A URL the browser refuses (a ws: address from an https page): as if unreachable.
      this.socket = null;
      if (this.resumeKey) this.closed(1006);
      else {
        this.over = true;
        this.options.onEvent({ type: 'failed', reason: 'unreachable' });
      }
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      if (typeof event.data === 'string') {
        const message = parseServerMessage(event.data);
        if (message) this.handle(message);
      } else if (event.data instanceof ArrayBuffer) {
        this.audio(event.data);
      }
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.closed(event.code);
    };
    socket.onerror = () => {};
  }

  private handle(message: CallServerMessage): void {
    const emit = this.options.onEvent;
    switch (message.type) {
      case 'ready':
        if (Math.floor(message.version) !== CALL_PROTOCOL_VERSION) {
          this.over = true;
          this.socket?.close(1000);
          emit({ type: 'failed', reason: 'version' });
          return;
        }
        this.live = true;
        this.attempt = 0;
        this.resumeKey = message.resume;
        this.graceMs = message.resume_grace_s * 1000;
        // A resumed connection starts afresh on the server: say again how we listen.
        if (this.ptt) this.send({ type: 'ptt', mode: true });
        if (this.muted) this.send({ type: 'mute', muted: true });
        emit(message);
        return;
      case 'audio_start':
        this.turn = message.turn_id;
        this.interrupted = null;
        this.options.sink.start(message.turn_id, message.sample_rate);
        this.playingTurn = message.turn_id;
        this.lastPlayed = -1;
        this.startPlayedReports();
        emit(message);
        return;
      case 'interrupt':
        void this.interrupt(message.turn_id);
        return;
      case 'end':
        this.over = true;
        this.finish(message);
        return;
      default:
        emit(message);
    }
  }

  private audio(data: ArrayBuffer): void {
    const turn = this.turn;
    if (!turn || turn === this.interrupted || this.over) return;
    this.framesIn++;
    this.options.sink.push(turn, data);
  }

  private async interrupt(turn: string): Promise<void> {
    this.interrupted = turn;
    if (this.playingTurn === turn) this.stopPlayedReports();
    const played = await this.options.sink.flush(turn);
    this.send({ type: 'flushed', turn_id: turn, played_ms: Math.max(0, Math.round(played)) });
    this.options.onEvent({ type: 'interrupt', turn_id: turn, played_ms: played });
  }

  private startPlayedReports(): void {
    if (this.playedTimer !== null) return;
    this.playedTimer = this.timers.setInterval(() => this.reportPlayed(), this.options.playedEveryMs ?? 250);
  }

  private stopPlayedReports(): void {
    if (this.playedTimer !== null) this.timers.clearInterval(this.playedTimer);
    this.playedTimer = null;
  }

  private reportPlayed(): void {
    const turn = this.playingTurn;
    if (!turn) return this.stopPlayedReports();
    const played = Math.round(this.options.sink.playedMs(turn));
    if (played === this.lastPlayed) return;
    this.lastPlayed = played;
    this.send({ type: 'played', turn_id: turn, played_ms: played });
  }

  private closed(code: number): void {
    this.stopPlayedReports();
    if (this.over) {
      this.finish({ type: 'end', reason: 'hangup' });
      return;
    }
    if (code === CALL_CLOSE_CODES.replaced) return this.finish({ type: 'end', reason: 'replaced' });
    if (code === CALL_CLOSE_CODES.call_over) return this.finish({ type: 'end', reason: 'connection_lost' });
    if (!this.resumeKey) {
      // The call never began on this socket.
      this.over = true;
      this.options.onEvent({
        type: 'failed',
        reason: code === CALL_CLOSE_CODES.invalid_token ? 'invalid_token' : 'unreachable',
      });
      return;
    }
    if (code === CALL_CLOSE_CODES.invalid_token && this.live === false && this.attempt > 0) {
      // The resume key is no longer accepted: the call is gone.
      return this.finish({ type: 'end', reason: 'connection_lost' });
    }
    if (this.live) {
      this.live = false;
      this.droppedAt = this.timers.now();
    }
    this.retry();
  }

  private retry(): void {
    const deadline = this.droppedAt + this.graceMs;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    if (this.timers.now() + delay > deadline) return this.finish({ type: 'end', reason: 'connection_lost' });
    this.attempt++;
    this.options.onEvent({ type: 'reconnecting', attempt: this.attempt });
    // Frames of the turn playing when the line dropped are still queued: a resumed server restarts its turn.
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      if (this.over || !this.resumeKey) return;
      this.open(`/api/audio_chat/ws?resume=${encodeURIComponent(this.resumeKey)}`);
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private finish(event: Extract<CallEvent, { type: 'end' }>): void {
    this.over = true;
    this.live = false;
    this.clearRetry();
    this.stopPlayedReports();
    if (this.hangupTimer !== null) this.timers.clearTimeout(this.hangupTimer);
    this.hangupTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      if (socket.readyState === OPEN || socket.readyState === 0) socket.close(1000);
    }
    if (this.ended) return;
    this.ended = true;
    this.options.onEvent(event);
  }

  private ended = false;
}
