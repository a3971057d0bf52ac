import type { Message } from '@reverie/shared';

/** What a live generation tells the streams attached to it. */
export type GenerationEvent =
  | { event: 'delta'; data: { message_id: string; text: string } }
  | { event: 'bot_message'; data: Message }
  | { event: 'error'; data: { code: string; detail: string; message_id: string | null } };

type Listener = (event: GenerationEvent) => void;

/**
 * One reply being generated. It belongs to the process, not to a request: a client that
 * disconnects only detaches its listener, and any later request (the same `client_id`
 * again, or `GET …/stream/{message_id}`) attaches to it and gets the text so far first.
 */
export class Generation {
  text = '';
  /** When the request that started it arrived (performance.now()), for the first-token metric. */
  readonly startedAt = performance.now();
  /** The reply being written; set by `bind` once its row exists. */
  messageId = '';
  private base: Message | null = null;
  readonly controller = new AbortController();
  /** Set by `stop`: the reply ends `stopped` with its partial text. */
  stopRequested = false;
  private readonly listeners = new Set<Listener>();
  private finished = false;
  private resolveDone!: () => void;
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    readonly chatId: string,
    readonly userId: string,
  ) {}

  /** The reply's message as saved when the generation started (state `streaming`). */
  bind(message: Message): void {
    this.messageId = message.id;
    this.base = message;
  }

  /** The reply as it stands now: what a stream attaching late gets first. */
  snapshot(): Message {
    if (!this.base) throw new Error('generation has no message yet');
    return { ...this.base, text: this.text, state: 'streaming' };
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** Attaches a listener; returns the function that detaches it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(piece: string): void {
    this.text += piece;
    this.emit({ event: 'delta', data: { message_id: this.messageId, text: piece } });
  }

  emit(event: GenerationEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener whose socket broke must not stop the generation.
      }
    }
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.listeners.clear();
    this.resolveDone();
  }
}

/**
 * The live generations of this process: at most one per chat (a second send while one runs
 * is a 409), found by chat or by message id. A chat is reserved before anything is written,
 * so two concurrent sends cannot both start one.
 */
export class GenerationRegistry {
  private readonly byChat = new Map<string, Generation>();
  private readonly byMessage = new Map<string, Generation>();

  forChat(chatId: string): Generation | undefined {
    return this.byChat.get(chatId);
  }

  forMessage(messageId: string): Generation | undefined {
    return this.byMessage.get(messageId);
  }

  /** Reserves the chat; null when it already has a generation (or a send being set up). */
  reserve(chatId: string, userId: string): Generation | null {
    if (this.byChat.has(chatId)) return null;
    const generation = new Generation(chatId, userId);
    this.byChat.set(chatId, generation);
    void generation.done.then(() => {
      this.byChat.delete(chatId);
      if (generation.messageId) this.byMessage.delete(generation.messageId);
    });
    return generation;
  }

  /** Makes a reserved generation findable by its reply's id. */
  bind(generation: Generation, message: Message): void {
    generation.bind(message);
    this.byMessage.set(message.id, generation);
  }

  get size(): number {
    return this.byChat.size;
  }

  /** Aborts every generation (server shutdown) and waits until they have saved. */
  async closeAll(): Promise<void> {
    const running = [...this.byChat.values()];
    for (const g of running) g.controller.abort(new Error('server shutting down'));
    await Promise.all(running.map((g) => g.done));
  }
}
