import type { CallServerMessage } from '@reverie/shared';
import type { CallAudioSink, SocketLike, Timers } from './protocol';

/** A WebSocket the test drives: what the client sent, and the server's side (open, messages, close). */
export class FakeSocket implements SocketLike {
  binaryType = 'blob';
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly sent: (string | ArrayBuffer)[] = [];
  closedWith: number | null = null;

  constructor(readonly url: string) {}

  send(data: string | ArrayBuffer): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  /** The JSON messages the client sent. */
  get json(): Record<string, unknown>[] {
    return this.sent
      .filter((m): m is string => typeof m === 'string')
      .map((m) => JSON.parse(m) as Record<string, unknown>);
  }

  get frames(): ArrayBuffer[] {
    return this.sent.filter((m): m is ArrayBuffer => m instanceof ArrayBuffer);
  }

  serverOpen(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  serverSend(message: CallServerMessage | ArrayBuffer): void {
    const data = message instanceof ArrayBuffer ? message : JSON.stringify(message);
    this.onmessage?.(new MessageEvent('message', { data }));
  }

  serverClose(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

/** Timers the test moves by hand. */
export function manualTimers(): Timers & { advance(ms: number): void } {
  let now = 1_000_000;
  let id = 0;
  const pending = new Map<number, { at: number; fn: () => void; every: number | null }>();
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      pending.set(++id, { at: now + ms, fn, every: null });
      return id;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
    setInterval: (fn, ms) => {
      pending.set(++id, { at: now + ms, fn, every: ms });
      return id;
    },
    clearInterval: (handle) => void pending.delete(handle as number),
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [key, timer] = due;
        now = timer.at;
        if (timer.every === null) pending.delete(key);
        else timer.at += timer.every;
        timer.fn();
      }
      now = end;
    },
  };
}

/** A playback that records what it was given and plays instantly at a set pace. */
export class FakeSink implements CallAudioSink {
  readonly pushed: { turn: string; bytes: number }[] = [];
  readonly started: { turn: string; rate: number }[] = [];
  readonly flushed: string[] = [];
  played = new Map<string, number>();

  start(turn: string, sampleRate: number): void {
    this.started.push({ turn, rate: sampleRate });
  }
  push(turn: string, pcm: ArrayBuffer): void {
    this.pushed.push({ turn, bytes: pcm.byteLength });
  }
  flush(turn: string): Promise<number> {
    this.flushed.push(turn);
    return Promise.resolve(this.played.get(turn) ?? 0);
  }
  playedMs(turn: string): number {
    return this.played.get(turn) ?? 0;
  }
}

export const ready = (changes: Partial<Extract<CallServerMessage, { type: 'ready' }>> = {}): CallServerMessage => ({
  type: 'ready',
  version: 1,
  call_id: '7b0c1a52-7d1e-4f57-9b0e-5b0a3c1d2e3f',
  chat_id: 'c1',
  input: { format: 'pcm16', sample_rate: 16000, frame_ms: 20 },
  output: { format: 'pcm16', sample_rate: 24000 },
  resume: 'resume-key-1',
  resume_grace_s: 10,
  elapsed_s: 0,
  seconds_left: 1800,
  state: 'listening',
  ...changes,
});

/** `n` bytes of PCM (silence). */
export const pcm = (bytes = 960) => new ArrayBuffer(bytes);
