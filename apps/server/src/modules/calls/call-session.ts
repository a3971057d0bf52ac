import { randomUUID } from 'node:crypto';
import type {
  CallClientMessage,
  CallServerMessage,
  CallState,
  Locale,
  SendMessageBody,
  StreamEvent,
} from '@reverie/shared';
import type { SttProvider } from '../../providers/stt/index.js';
import { SttError } from '../../providers/stt/index.js';
import type { TtsProvider } from '../../providers/tts/index.js';
import type { VoiceActivityDetector } from '../../providers/vad/vad.js';
import { detectLanguage } from '../audio/index.js';
import { SentenceChunker } from './sentences.js';
import { Speaker } from './speaker.js';
import { TurnDetector } from './turn-detector.js';

/** What a call needs of the chat engine (modules/chats RepliesService), structurally. */
export interface CallReplies {
  send(
    userId: string,
    chatId: string,
    body: SendMessageBody,
    locale: Locale,
    options: { spoken?: boolean },
  ): Promise<AsyncIterableIterator<StreamEvent> & { return(): Promise<IteratorResult<StreamEvent>> }>;
  stop(userId: string, chatId: string): Promise<void>;
  cutSpokenReply(userId: string, chatId: string, messageId: string, text: string): Promise<boolean>;
}

/** Where the session's output goes (the WebSocket; a test's recorder). */
export interface CallOutput {
  json(message: CallServerMessage): void;
  audio(pcm: Buffer): void;
}

/** The times of one turn's stages (ms), for the benchmark and the logs. */
export interface TurnTimings {
  turnId: string;
  /** Clock (performance.now) when the end of the user's turn was detected. */
  speechEndAt: number;
  sttMs?: number;
  firstTokenMs?: number;
  firstSentenceMs?: number;
  firstSynthesisMs?: number;
  /** From the end of the turn's detection to the first reply audio frame sent. */
  firstAudioMs?: number;
}

export interface CallSessionOptions {
  userId: string;
  chatId: string;
  /** The user's language: recognition's hint, the notices' language, the voice's fallback. */
  locale: Locale;
  /** The character's voice (an espeak-ng voice or the provider's). */
  voice: string;
  stt: SttProvider;
  tts: TtsProvider;
  vad: VoiceActivityDetector;
  replies: CallReplies;
  output: CallOutput;
  endOfTurnMs: number;
  minSpeechMs: number;
  outputSampleRate: number;
  leadMs: number;
  /** How long to wait for the client's `flushed` after an `interrupt` (300 ms). */
  flushWaitMs?: number;
  ttsTimeoutMs: number;
  log: { warn(object: object, message?: string): void };
  onTimings?(timings: TurnTimings): void;
  /**
   * What recognition did: `worked` the first time an utterance is understood, `failed` on a
   * failure while it never has (a call in which it never worked counts no minute).
   */
  onRecognition?(outcome: 'failed' | 'worked'): void;
}

interface Turn {
  id: string;
  controller: AbortController;
  /** `stt` until the user's words are sent to the chat engine. */
  phase: 'stt' | 'reply';
  pcm: Int16Array;
  replyId: string | null;
  speaker: Speaker | null;
  interrupted: boolean;
  /** Settles once the turn's pipeline has run (its events read to the end). */
  ran: Promise<void>;
  /** Settles once the turn is over and, when interrupted, its reply is cut. */
  done: Promise<void>;
  cut: Promise<void> | null;
  flushed: ((playedMs: number) => void) | null;
  timings: TurnTimings;
  /** The words recognised early (while the end-of-turn silence ran), if they fit this audio. */
  early?: Promise<string> | null;
}

const NOTICES_SPOKEN = new Set(['crisis', 'refusal']);

const concat = (a: Int16Array, b: Int16Array) => {
  if (a.length === 0) return b;
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/**
 * One call's pipeline (docs/calls.md): ONE state machine — listening → user_speaking →
 * thinking → speaking — and ONE AbortController per turn. Microphone audio goes through the
 * turn detector; at the end of a turn the words are recognised, sent through the chat engine
 * (the same prompt and safety rules as text chat, saved as spoken messages) and the reply is
 * said sentence by sentence as it streams. Speech from the user while the character thinks or
 * speaks interrupts her: the client is told to flush, the generation and the synthesis stop,
 * and the saved reply is cut to what the user heard.
 */
export class CallSession {
  private state: CallState = 'listening';
  private readonly detector: TurnDetector;
  private turn: Turn | null = null;
  /** The last turn's settlement: the next one waits for it (one live reply per chat). */
  private previous: Promise<void> = Promise.resolve();
  /** Audio of an utterance interrupted before it was understood: said again with the next one. */
  private carried: Int16Array = new Int16Array(0);
  private muted = false;
  private closed = false;
  /**
   * Recognition started early, once half the end-of-turn silence has passed: when the turn
   * does end with the same audio, its words are (nearly) ready; speech resuming drops it.
   */
  private speculation: { pcm: Int16Array; controller: AbortController; result: Promise<string> } | null = null;
  private listeningTimer: NodeJS.Timeout | undefined;
  /** What this connection told `onRecognition` last (once `worked`, nothing more). */
  private recognition: 'failed' | 'worked' | null = null;

  constructor(private readonly options: CallSessionOptions) {
    this.detector = new TurnDetector(options.vad, {
      endOfTurnMs: options.endOfTurnMs,
      minSpeechMs: options.minSpeechMs,
    });
  }

  get currentState(): CallState {
    return this.state;
  }

  private send(message: CallServerMessage): void {
    if (!this.closed) this.options.output.json(message);
  }

  private setState(state: CallState): void {
    clearTimeout(this.listeningTimer);
    if (state === this.state) return;
    this.state = state;
    this.send({ type: 'state', state });
  }

  /** Microphone audio: 16 kHz mono PCM16. */
  audio(samples: Int16Array): void {
    if (this.closed || this.muted) return;
    for (const event of this.detector.push(samples)) this.onTurnEvent(event);
    this.speculate();
  }

  private dropSpeculation(): void {
    this.speculation?.controller.abort(new Error('the speech went on'));
    this.speculation = null;
  }

  private speculate(): void {
    const silence = this.detector.trailingSilenceMs;
    if (silence === 0) {
      // Speaking again (or no utterance): an early recognition is for audio that grew since.
      if (this.speculation && this.detector.inSpeech) this.dropSpeculation();
      return;
    }
    // Half the end-of-turn silence, and enough of it that the audio sent is the same as at the
    // end (the utterance keeps 200 ms of its trailing silence).
    const from = Math.max(this.options.endOfTurnMs / 2, 240);
    if (this.speculation || silence < from || from >= this.options.endOfTurnMs) return;
    const pcm = concat(this.carried, this.detector.utteranceSoFar());
    const controller = new AbortController();
    const result = this.options.stt
      .transcribe({ pcm, sampleRate: 16_000, language: this.options.locale, signal: controller.signal })
      .then((transcription) => transcription.text);
    result.catch(() => undefined);
    this.speculation = { pcm, controller, result };
  }

  /** A control message from the client (already validated). */
  control(message: CallClientMessage): void {
    if (this.closed) return;
    switch (message.type) {
      case 'mute':
        this.muted = message.muted;
        if (message.muted) {
          this.dropSpeculation();
          this.detector.reset();
          if (this.state === 'user_speaking') this.setState('listening');
        }
        return;
      case 'ptt':
        for (const event of this.detector.setPushToTalk(message.mode)) this.onTurnEvent(event);
        return;
      case 'talk':
        for (const event of this.detector.talk(message.down)) this.onTurnEvent(event);
        return;
      case 'flushed': {
        const turn = this.lastInterrupted;
        if (turn && turn.id === message.turn_id) turn.flushed?.(message.played_ms);
        return;
      }
      case 'played':
        // The pacing's own estimate is kept; `flushed` gives the exact figure when it matters.
        return;
      case 'hangup':
        return;
    }
  }

  private lastInterrupted: Turn | null = null;

  private onTurnEvent(event: ReturnType<TurnDetector['push']>[number]): void {
    if (event.type === 'speech_start') {
      const turn = this.turn;
      if (turn && !turn.interrupted) this.interrupt(turn, true);
      this.setState('user_speaking');
      return;
    }
    const pcm = concat(this.carried, event.pcm);
    this.carried = new Int16Array(0);
    // The early recognition is used when it heard exactly this audio.
    let early: Promise<string> | null = null;
    if (this.speculation && this.speculation.pcm.length === pcm.length) early = this.speculation.result;
    else this.speculation?.controller.abort(new Error('the audio differs'));
    const speculation = this.speculation;
    this.speculation = null;
    this.startTurn(pcm, early, speculation?.controller ?? null);
  }

  private startTurn(
    pcm: Int16Array,
    early: Promise<string> | null = null,
    earlyController: AbortController | null = null,
  ): void {
    const controller = new AbortController();
    const turn: Turn = {
      id: randomUUID(),
      controller,
      phase: 'stt',
      pcm,
      replyId: null,
      speaker: null,
      interrupted: false,
      ran: Promise.resolve(),
      done: Promise.resolve(),
      cut: null,
      flushed: null,
      timings: { turnId: '', speechEndAt: performance.now() },
    };
    turn.timings.turnId = turn.id;
    turn.early = early;
    if (earlyController) controller.signal.addEventListener('abort', () => earlyController.abort(), { once: true });
    this.turn = turn;
    this.setState('thinking');
    const previous = this.previous;
    turn.ran = (async () => {
      await previous;
      try {
        await this.runTurn(turn);
      } catch (error) {
        this.options.log.warn({ err: error }, 'a call turn failed');
        if (!turn.interrupted) this.send({ type: 'notice', code: 'turn_failed', detail: 'The reply failed.' });
      }
    })();
    turn.done = (async () => {
      await turn.ran;
      if (turn.cut) await turn.cut;
      if (this.turn === turn) {
        this.turn = null;
        const remaining = turn.speaker?.remainingMs() ?? 0;
        // Listening again once the client has played the reply's last frame.
        if (remaining > 0 && !turn.interrupted)
          this.listeningTimer = setTimeout(() => {
            if (!this.turn && this.state === 'speaking') this.setState('listening');
          }, remaining);
        else if (this.state === 'thinking' || this.state === 'speaking') this.setState('listening');
      }
      this.options.onTimings?.(turn.timings);
    })();
    this.previous = turn.done;
  }

  private recognised(outcome: 'failed' | 'worked'): void {
    if (this.recognition === 'worked' || this.recognition === outcome) return;
    this.recognition = outcome;
    this.options.onRecognition?.(outcome);
  }

  private async runTurn(turn: Turn): Promise<void> {
    const { stt, replies, userId, chatId, locale } = this.options;
    const signal = turn.controller.signal;
    if (signal.aborted) return;
    const sttStarted = performance.now();
    let text: string;
    try {
      text = turn.early
        ? await turn.early
        : (await stt.transcribe({ pcm: turn.pcm, sampleRate: 16_000, language: locale, signal })).text;
    } catch (error) {
      if (signal.aborted) return;
      const code = error instanceof SttError ? error.code : 'provider_error';
      this.options.log.warn({ err: error, code }, 'speech recognition failed in a call');
      this.recognised('failed');
      this.send({ type: 'notice', code: 'stt_failed', detail: 'The words could not be understood.' });
      return;
    }
    turn.timings.sttMs = performance.now() - sttStarted;
    this.recognised('worked');
    if (signal.aborted) return;
    text = text.trim();
    if (!text) return;
    turn.phase = 'reply';
    const askedAt = performance.now();
    let queue: Awaited<ReturnType<CallReplies['send']>>;
    try {
      queue = await replies.send(userId, chatId, { text, client_id: randomUUID() }, locale, { spoken: true });
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'provider_error';
      this.send({ type: 'notice', code, detail: (error as Error).message });
      this.send({ type: 'caption', role: 'user', turn_id: turn.id, message_id: null, text, final: true });
      return;
    }
    // Interrupted while the message was being saved: its reply is stopped now that it exists.
    if (turn.interrupted) await replies.stop(userId, chatId).catch(() => undefined);
    const speaker = new Speaker({
      tts: this.options.tts,
      voice: this.options.voice,
      language: (first) => detectLanguage(first, locale),
      outputRate: this.options.outputSampleRate,
      leadMs: this.options.leadMs,
      ttsTimeoutMs: this.options.ttsTimeoutMs,
      sendAudio: (pcm) => {
        if (turn.interrupted || this.closed) return;
        turn.timings.firstAudioMs ??= performance.now() - turn.timings.speechEndAt;
        this.options.output.audio(pcm);
      },
      onStart: () => {
        if (turn.interrupted) return;
        this.send({ type: 'audio_start', turn_id: turn.id, sample_rate: this.options.outputSampleRate });
        if (this.turn === turn) this.setState('speaking');
      },
      onSentence: (sentence, messageId) => {
        if (!turn.interrupted)
          this.send({
            type: 'caption',
            role: 'bot',
            turn_id: turn.id,
            message_id: messageId,
            text: sentence,
            final: true,
          });
      },
      onError: (error) => {
        this.options.log.warn({ err: error }, 'a sentence could not be synthesised in a call');
        this.send({ type: 'notice', code: 'tts_failed', detail: 'A sentence could not be spoken.' });
      },
      onFirstSynthesis: (ms) => (turn.timings.firstSynthesisMs ??= ms),
    });
    turn.speaker = speaker;
    const chunker = new SentenceChunker();
    const say = (sentences: string[], messageId: string | null, cuttable: boolean) => {
      if (sentences.length > 0) turn.timings.firstSentenceMs ??= performance.now() - askedAt;
      for (const sentence of sentences) speaker.add(sentence, messageId, cuttable);
    };
    for await (const event of queue) {
      // Interrupted: the generation is being stopped; the events are read to their end (the
      // reply's id and final state) but nothing more is said.
      switch (event.event) {
        case 'user_message':
          this.send({
            type: 'caption',
            role: 'user',
            turn_id: turn.id,
            message_id: event.data.id,
            text,
            final: true,
          });
          break;
        case 'system_message':
          if (event.data.notice && NOTICES_SPOKEN.has(event.data.notice) && !turn.interrupted) {
            const notice = new SentenceChunker();
            say([...notice.push(event.data.text), ...notice.flush()], event.data.id, false);
          }
          break;
        case 'bot_message':
          turn.replyId = event.data.id;
          break;
        case 'delta':
          turn.timings.firstTokenMs ??= performance.now() - askedAt;
          if (!turn.interrupted) say(chunker.push(event.data.text), event.data.message_id, true);
          break;
        case 'error':
          if (!turn.interrupted) this.send({ type: 'notice', code: event.data.code, detail: event.data.detail });
          break;
        default:
          break;
      }
    }
    if (!turn.interrupted) say(chunker.flush(), turn.replyId, true);
    speaker.end();
    await speaker.finished;
    if (!turn.interrupted && speaker.hasAudio) this.send({ type: 'audio_end', turn_id: turn.id });
  }

  /**
   * Barge-in (`tell` true: the client is told to flush) or the end of the call: the turn is
   * aborted, its generation and synthesis stop, and its saved reply is cut to what was heard.
   */
  private interrupt(turn: Turn, tell: boolean): void {
    turn.interrupted = true;
    if (this.turn === turn) this.turn = null;
    turn.controller.abort(new Error('interrupted'));
    const speaker = turn.speaker;
    const estimate = speaker?.playedMs() ?? 0;
    speaker?.stop();
    if (turn.phase === 'stt') {
      // Not understood yet: the words are heard again with what the user says now.
      this.carried = concat(turn.pcm, this.carried);
      return;
    }
    if (tell) {
      this.lastInterrupted = turn;
      this.send({ type: 'interrupt', turn_id: turn.id });
    }
    const flushWaitMs = this.options.flushWaitMs ?? 300;
    const played =
      tell && speaker?.hasAudio
        ? new Promise<number>((resolve) => {
            const timer = setTimeout(() => resolve(estimate), flushWaitMs);
            turn.flushed = (ms) => {
              clearTimeout(timer);
              resolve(Math.max(0, Math.min(ms, estimate + flushWaitMs)));
            };
          })
        : Promise.resolve(estimate);
    const { replies, userId, chatId } = this.options;
    turn.cut = (async () => {
      await replies.stop(userId, chatId).catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'could not stop an interrupted reply');
      });
      const playedMs = await played;
      // The reply's events are read to their end (its id, its final save) before it is cut.
      await turn.ran;
      if (!turn.replyId) return;
      const heard = speaker?.heardText(playedMs) ?? '';
      await replies.cutSpokenReply(userId, chatId, turn.replyId, heard).catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'could not cut an interrupted reply');
      });
    })();
  }

  /**
   * Ends the pipeline (hang-up, a dropped socket, the end of the call): a turn in flight is
   * stopped and its reply cut to what was played; resolves once that is saved.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    const turn = this.turn;
    if (turn && !turn.interrupted) this.interrupt(turn, false);
    this.closed = true;
    this.dropSpeculation();
    clearTimeout(this.listeningTimer);
    await this.previous.catch(() => undefined);
    if (turn?.cut) await turn.cut;
    this.options.vad.close();
  }
}
