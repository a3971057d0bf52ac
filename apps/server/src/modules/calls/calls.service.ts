import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  CALL_INPUT_FRAME_MS,
  CALL_INPUT_SAMPLE_RATE,
  CALL_PROTOCOL_VERSION,
  DEFAULT_LOCALE,
  toLocale,
  type CallEndReason,
  type CallTokenBody,
  type CallTokenResponse,
  type ClientConfig,
  type Locale,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { violatedUniqueIndex } from '../../db/errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { verifyServerJwt } from '../../lib/tokens.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { PubSub } from '../../providers/pubsub/pubsub.provider.js';
import type { SttProvider } from '../../providers/stt/index.js';
import type { TtsProvider } from '../../providers/tts/index.js';
import type { VoiceActivityDetector } from '../../providers/vad/vad.js';
import { hasPremium } from '../billing/index.js';
import type { CallReplies, TurnTimings } from './call-session.js';
import {
  claimCall,
  endCall,
  endExpiredCalls,
  endIdleCalls,
  findCall,
  insertCall,
  LIVE_CALL_INDEX,
  recordRecognition,
  releaseCall,
  renewCall,
  resumeKeyKnown,
  secondsUsedToday,
  type ClaimedCall,
} from './calls.repository.js';
import { CallConnection, type CallSocket } from './call-connection.js';

/** `/api/config`'s `calls`: whether a call can start, and the reason code when not. */
export type CallsAvailability = ClientConfig['calls'];

/** Makes the voice activity detector of one call (Silero or WebRTC VAD, providers/vad). */
export type VadFactory = () => VoiceActivityDetector | Promise<VoiceActivityDetector>;

export interface CallSettings {
  minutesPerDay: number;
  endOfTurnMs: number;
  minSpeechMs: number;
  resumeGraceS: number;
  tokenTtlS: number;
  outputSampleRate: number;
  leadMs: number;
  ttsTimeoutMs: number;
  /** How long an owner is presumed alive without renewing (15 s), how often it renews and writes the seconds (5 s). */
  leaseMs?: number;
  renewEveryMs?: number;
  /** How often a replica ends calls nobody resumed (5 s). */
  sweepEveryMs?: number;
  /** Heartbeat pings (15 s): a socket that answers none by the next is dropped. */
  pingEveryMs?: number;
  /** How often the client is told the time (5 s). */
  timeEveryMs?: number;
}

export interface CallsDeps {
  db: Database;
  secret: string;
  stt: SttProvider;
  tts: TtsProvider;
  /** null: no voice activity detection in this build (calls unavailable). */
  vad: VadFactory | null;
  replies: CallReplies;
  chats: CallChats;
  /** The voice of a character; null when it is gone (the bots module). */
  characterVoice(botId: string): Promise<string | null>;
  pubsub: PubSub;
  /** Live sessions: a call token of a session that ended (log-out, password change) is refused. */
  sessions: { check(userId: string, sid: string): Promise<unknown> };
  log: Pick<ServiceLog, 'info' | 'warn'>;
  settings: CallSettings;
  /** Stage times of each turn (the benchmark). */
  onTimings?(timings: TurnTimings): void;
}

/** What calls needs of the chats module (a call is a conversation in one of the user's chats). */
export interface CallChats {
  /** The user's own chat; 404 when it is not theirs. */
  ownedChat(userId: string, chatId: string): Promise<{ id: string; botId: string }>;
  /** The user's latest chat with a character (or a new one); 404 when it cannot be chatted with. */
  chatForSlug(userId: string, slug: string, locale: Locale): Promise<string>;
}

/** What a checked socket request carries to the connection. */
export type CallAdmission =
  | {
      ok: true;
      call: ClaimedCall;
      owner: string;
      resumeKey: string;
      locale: Locale;
      voice: string;
      usedBeforeS: number;
      vad: VoiceActivityDetector;
    }
  | { ok: false; code: 4001 | 4004; reason: string };

const hash = (key: string) => createHash('sha256').update(key).digest('hex');
const newKey = () => randomBytes(32).toString('base64url');

/** Seconds until the next midnight UTC (when the day's call minutes come back). */
export function secondsUntilUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/**
 * Voice calls (issue 14, docs/calls.md): the token, the admission of sockets (token or resume
 * key, checked before any pipeline is built), the calls this replica holds, and the sweep that
 * ends calls nobody resumed. A call is a row of `calls`: one live per user across replicas,
 * owned by one socket's connection at a time, resumable on any replica within the grace period.
 */
export class CallsService {
  /** This process's identity; each connection owns its call as `<instance>:<connection>`. */
  readonly instanceId = randomBytes(8).toString('hex');
  private readonly key: Uint8Array;
  private readonly connections = new Set<CallConnection>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private connectionCount = 0;
  /** The last reason logged for refusing calls (logged once per change, not per request). */
  private lastRefusal: string | null = null;

  constructor(private readonly deps: CallsDeps) {
    this.key = new TextEncoder().encode(`${deps.secret}:calls`);
  }

  get settings(): Required<CallSettings> {
    const s = this.deps.settings;
    return {
      leaseMs: 15_000,
      renewEveryMs: 5_000,
      sweepEveryMs: 5_000,
      pingEveryMs: 15_000,
      timeEveryMs: 5_000,
      ...s,
    };
  }

  private get graceMs(): number {
    return this.settings.resumeGraceS * 1000;
  }

  /**
   * Whether a call can start now, and why not (GET /api/config, the token): voice activity
   * detection in this build, and speech recognition able to run — its model present or
   * pullable, or its remote provider answering (`SttProvider.availability`, probes kept a
   * while and shared by concurrent requests).
   */
  async availability(mode: 'cached' | 'fresh' = 'cached'): Promise<CallsAvailability> {
    if (this.deps.vad === null) return { available: false, reason: 'stt_unavailable' };
    const stt = await this.deps.stt
      .availability(mode)
      .catch((error: unknown) => ({ ok: false, reason: 'stt_unavailable', detail: String(error) }) as const);
    if (stt.ok) return { available: true, reason: null };
    if (this.lastRefusal !== stt.detail) {
      this.lastRefusal = stt.detail;
      this.deps.log.warn({ reason: stt.reason, detail: stt.detail }, 'calls are unavailable');
    }
    return { available: false, reason: stt.reason };
  }

  /** Starts the sweep of calls nobody resumed. */
  start(): void {
    const every = this.settings.sweepEveryMs;
    const next = () => {
      if (this.closed) return;
      this.sweepTimer = setTimeout(() => void this.sweep().finally(next), every * (0.8 + Math.random() * 0.4));
      this.sweepTimer.unref();
    };
    next();
  }

  /** Ends the calls whose grace period ran out; answers how many. */
  async sweep(): Promise<number> {
    try {
      const ended = await endExpiredCalls(this.deps.db, this.graceMs);
      if (ended.length > 0) this.deps.log.info({ count: ended.length }, 'calls nobody resumed were ended');
      return ended.length;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not sweep calls');
      return 0;
    }
  }

  /** The seconds of calling the user has left today (other than the call `exceptCallId`). */
  async secondsLeft(userId: string, exceptCallId?: string): Promise<number> {
    const used = await secondsUsedToday(this.deps.db, userId, exceptCallId);
    return Math.max(0, this.settings.minutesPerDay * 60 - used);
  }

  /** `POST /api/audio_chat/token`. */
  async issueToken(
    userId: string,
    sessionId: string,
    body: CallTokenBody,
    requestLocale: string,
  ): Promise<CallTokenResponse> {
    const { db } = this.deps;
    const locale = toLocale(requestLocale) ?? DEFAULT_LOCALE;
    if (!(await hasPremium(db, userId))) throw new AppError('premium_required', { status: 402 });
    const availability = await this.availability('fresh');
    if (!availability.available)
      throw new AppError('stt_unavailable', {
        status: 409,
        errors: { reason: [availability.reason ?? 'stt_unavailable'] },
      });
    // A local model not loaded yet starts loading now (the first turn waits for it).
    if (this.deps.stt.status().state !== 'ready') void this.deps.stt.prepare().catch(() => undefined);
    const left = await this.secondsLeft(userId);
    if (left <= 0)
      throw new AppError('call_minutes_exhausted', {
        status: 429,
        headers: { 'retry-after': String(secondsUntilUtcMidnight()) },
      });
    // The chat last: a call refused for another reason creates no chat.
    let chatId: string;
    if (body.chat_id) chatId = (await this.deps.chats.ownedChat(userId, body.chat_id)).id;
    else if (body.slug) chatId = await this.deps.chats.chatForSlug(userId, body.slug, locale);
    else throw notFound();
    const ttlS = this.settings.tokenTtlS;
    const insert = () =>
      insertCall(db, { userId, chatId, locale, leaseMs: ttlS * 1000, resumeKeyHash: hash(newKey()) });
    let callId: string;
    try {
      callId = await insert();
    } catch (error) {
      if (violatedUniqueIndex(error) !== LIVE_CALL_INDEX) throw error;
      // A call no socket holds (a token never used, a dropped call) or whose replica died is
      // ended first; a call held by a live connection is a conflict.
      if ((await endIdleCalls(db, userId)) === 0) throw new AppError('call_in_progress', { status: 409 });
      try {
        callId = await insert();
      } catch (again) {
        if (violatedUniqueIndex(again) === LIVE_CALL_INDEX) throw new AppError('call_in_progress', { status: 409 });
        throw again;
      }
    }
    const expiresAt = Math.floor(Date.now() / 1000) + ttlS;
    const token = await new SignJWT({ chat: chatId, call: callId, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer('reverie')
      .setAudience('call')
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(this.key);
    return {
      token,
      url: `/api/audio_chat/ws?token=${encodeURIComponent(token)}`,
      expires_at: new Date(expiresAt * 1000).toISOString(),
      call_id: callId,
      chat_id: chatId,
      seconds_left: left,
    };
  }

  /**
   * A call token's user and call: `exp`, `iat`, `sub`, `sid` and `call` required (`verifyServerJwt`),
   * and the session it was issued to still live (checked as every access token is).
   */
  private async verifyToken(token: string): Promise<{ userId: string; callId: string } | null> {
    const payload = await verifyServerJwt(token, this.key, {
      issuer: 'reverie',
      audience: 'call',
      extraClaims: ['call'],
    });
    if (!payload || typeof payload.call !== 'string') return null;
    if (!(await this.deps.sessions.check(payload.sub, payload.sid))) return null;
    return { userId: payload.sub, callId: payload.call };
  }

  /**
   * Checks a socket's token or resume key before the upgrade's work: the call is claimed for
   * a new connection (any other connection of it, on any replica, is replaced), its resume key
   * renewed, and everything the pipeline needs is read.
   */
  async admit(query: { token?: string; resume?: string }): Promise<CallAdmission> {
    const { db } = this.deps;
    if (this.closed) return { ok: false, code: 4004, reason: 'server_shutdown' };
    const owner = `${this.instanceId}:${++this.connectionCount}`;
    const resumeKey = newKey();
    const values = { owner, leaseMs: this.settings.leaseMs, graceMs: this.graceMs, newResumeKeyHash: hash(resumeKey) };
    let call: ClaimedCall | null;
    if (query.token && query.token.length <= 2048) {
      const claims = await this.verifyToken(query.token);
      if (!claims) return { ok: false, code: 4001, reason: 'invalid_token' };
      call = await claimCall(db, claims, values);
    } else if (query.resume && query.resume.length <= 128) {
      const keyHash = hash(query.resume);
      call = await claimCall(db, { resumeKeyHash: keyHash }, values);
      if (!call && !(await resumeKeyKnown(db, keyHash))) return { ok: false, code: 4001, reason: 'invalid_token' };
    } else return { ok: false, code: 4001, reason: 'invalid_token' };
    if (!call) return { ok: false, code: 4004, reason: 'call_over' };
    try {
      const chat = await this.deps.chats.ownedChat(call.userId, call.chatId);
      const voice = await this.deps.characterVoice(chat.botId);
      if (voice === null || !this.deps.vad) throw new Error('the call cannot run');
      const usedBeforeS = await secondsUsedToday(db, call.userId, call.id);
      const vad = await this.deps.vad();
      // Any other connection of the call (here or on another replica) gives way.
      await this.deps.pubsub.publish(callChannel(call.id), owner).catch(() => undefined);
      return {
        ok: true,
        call,
        owner,
        resumeKey,
        locale: toLocale(call.locale) ?? DEFAULT_LOCALE,
        voice,
        usedBeforeS,
        vad,
      };
    } catch (error) {
      this.deps.log.warn({ err: error }, 'a call could not start');
      await endCall(db, call.id, owner, { reason: 'error', secondsBilled: Math.floor(call.elapsedS) }).catch(
        () => undefined,
      );
      return { ok: false, code: 4004, reason: 'error' };
    }
  }

  /** Runs an admitted call on its socket. */
  async connect(socket: CallSocket, admission: Extract<CallAdmission, { ok: true }>): Promise<void> {
    const { db } = this.deps;
    const s = this.settings;
    const connection = new CallConnection({
      socket,
      admission,
      settings: s,
      stt: this.deps.stt,
      tts: this.deps.tts,
      replies: this.deps.replies,
      log: this.deps.log,
      onTimings: this.deps.onTimings,
      store: {
        renew: (seconds) =>
          renewCall(db, admission.call.id, admission.owner, { leaseMs: s.leaseMs, secondsBilled: seconds }),
        release: (seconds) => releaseCall(db, admission.call.id, admission.owner, seconds),
        recognition: (outcome) => recordRecognition(db, admission.call.id, outcome),
        end: (reason: CallEndReason, seconds) =>
          endCall(db, admission.call.id, admission.owner, { reason, secondsBilled: seconds }),
        // A dropped call that nobody resumes ends once its grace period is over.
        sweepLater: () => setTimeout(() => void this.sweep(), this.graceMs + 250).unref(),
      },
    });
    this.connections.add(connection);
    void connection.closed.then(() => this.connections.delete(connection));
    // Listening at once: nothing the client sends after `open` is lost.
    connection.start();
    const unsubscribe = await this.deps.pubsub
      .subscribe(callChannel(admission.call.id), (owner) => {
        if (owner === admission.owner) return;
        // Checked against the row: a late message of an older connection replaces nothing.
        void findCall(db, admission.call.id)
          .then((row) => {
            if (!row || row.owner !== admission.owner) connection.replaced();
          })
          .catch(() => undefined);
      })
      .catch(() => null);
    void connection.closed.then(() => unsubscribe?.().catch(() => undefined));
  }

  /** Calls held by this process now. */
  get size(): number {
    return this.connections.size;
  }

  /** Shutdown: every call of this replica ends with `server_shutdown`. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    await Promise.all([...this.connections].map((connection) => connection.end('server_shutdown')));
  }
}

const callChannel = (callId: string) => `call.owner.${callId}`;

export { CALL_INPUT_FRAME_MS, CALL_INPUT_SAMPLE_RATE, CALL_PROTOCOL_VERSION };
