import type {
  ChatCompanion,
  ChatCompanionBody,
  CompanionSettings,
  CompanionSettingsBody,
  Locale,
} from '@reverie/shared';
import { LOCALES } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { ProactiveOutcome, ProactiveRequest } from '../chats/index.js';
import * as repo from './companion.repository.js';
import { presentChatCompanion, presentSettings } from './companion.presenter.js';
import {
  afterQuietHours,
  clockToMinutes,
  inQuietHours,
  localTime,
  localTimeText,
  nextLocalDay,
  nextSlot,
  type Frequency,
  type QuietHours,
} from './schedule.js';

/**
 * What the app is told when she has written first (docs/companion.md "Notifications"): the push
 * module delivers it to the user's devices; the e-mail digest counts it. A notification shows
 * `firstWords` only when `explicit` is false, and always says how to turn them off (`settingsUrl`).
 */
export interface ProactiveNotice {
  userId: string;
  chatId: string;
  messageId: string;
  characterName: string;
  /** The character's address (the notification opens her chat). */
  characterSlug: string;
  /** The character's picture URL; null: none. */
  characterPicture: string | null;
  /** The first words of her message (at most 120 characters). */
  firstWords: string;
  /** Not for a lock screen: the character's picture was judged explicit. */
  explicit: boolean;
  /** Where one tap turns proactive messages off (Settings → "She can write to me first"). */
  settingsUrl: string;
}

export type Notify = (notice: ProactiveNotice) => Promise<void>;

/** The care rules' constants (PRODUCT.md §10; docs/companion.md "Care rules"). */
export const CARE = {
  /** Unanswered proactive messages after which she stops until the user writes. */
  maxUnanswered: 2,
  /** Days without proactive messages after the crisis protocol fired. */
  crisisPauseDays: 7,
  /** A claim is the slot's first attempt; the second is its one retry; a third claim skips it. */
  maxAttempts: 2,
} as const;

export interface CompanionOptions {
  batchSize: number;
  concurrency: number;
  /** A claimed slot is claimable again after this long (its replica died). */
  leaseSeconds: number;
  /** A slot whose write failed is tried again after this long (once). */
  retryDelaySeconds: number;
  /** Missed slots older than this (downtime) are skipped, not sent late. */
  catchUpMs: number;
}

export interface CompanionDeps {
  db: Database;
  log: Pick<ServiceLog, 'info' | 'warn' | 'error'>;
  chats: { writeFirst(request: ProactiveRequest): Promise<ProactiveOutcome> };
  notify: Notify;
  publicUrl: string;
  options: CompanionOptions;
  now?: () => Date;
  random?: () => number;
}

/** What became of a claimed slot (counted by `runDue`, logged when skipped). */
export type SlotResult =
  | 'sent'
  | 'duplicate'
  | 'skipped_retries'
  | 'skipped_stale'
  | 'paused_silence'
  | 'deferred_crisis'
  | 'deferred_account'
  | 'deferred_quiet'
  | 'deferred_cap'
  | 'deferred_busy'
  | 'refused'
  | 'gone'
  | 'failed';

const toLocale = (value: string): Locale => ((LOCALES as readonly string[]).includes(value) ? (value as Locale) : 'en');

/**
 * The companion between conversations (docs/companion.md): the settings, the slots, and the
 * care rules checked when a slot comes — only then is her message written.
 */
export class CompanionService {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly deps: CompanionDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private random(): number {
    return this.deps.random?.() ?? Math.random();
  }

  async getSettings(userId: string): Promise<CompanionSettings> {
    const [row, verified] = await Promise.all([
      repo.findSettings(this.deps.db, userId),
      repo.emailVerified(this.deps.db, userId),
    ]);
    return presentSettings(row, verified);
  }

  async updateSettings(userId: string, body: CompanionSettingsBody): Promise<CompanionSettings> {
    const row = await repo.saveSettings(this.deps.db, userId, {
      ...(body.time_zone !== undefined ? { timeZone: body.time_zone } : {}),
      ...(body.quiet_start !== undefined ? { quietStart: clockToMinutes(body.quiet_start) } : {}),
      ...(body.quiet_end !== undefined ? { quietEnd: clockToMinutes(body.quiet_end) } : {}),
      ...(body.daily_cap !== undefined ? { dailyCap: body.daily_cap } : {}),
      ...(body.email_digest !== undefined ? { emailDigest: body.email_digest } : {}),
    });
    // New quiet hours or zone: every slot of the user is planned again.
    await this.replanUser(userId, row);
    return presentSettings(row, await repo.emailVerified(this.deps.db, userId));
  }

  async getChat(userId: string, chatId: string): Promise<ChatCompanion> {
    const slot = await repo.findSlot(this.deps.db, chatId);
    return presentChatCompanion(chatId, slot && slot.userId === userId ? slot : null);
  }

  /** Turns her proactive messages in the chat on (with a frequency) or off. */
  async setChat(userId: string, chatId: string, body: ChatCompanionBody): Promise<ChatCompanion> {
    const { db } = this.deps;
    if (body.frequency === 'off') {
      await repo.deleteSlot(db, chatId, userId);
      return presentChatCompanion(chatId, null);
    }
    if (body.time_zone) await repo.saveZoneIfUnknown(db, userId, body.time_zone);
    const settings = (await repo.findSettings(db, userId)) ?? (await repo.saveSettings(db, userId, {}));
    const at = nextSlot(this.now(), body.frequency, quiet(settings), () => this.random());
    const slot = await repo.saveSlot(db, { chatId, userId, frequency: body.frequency, at });
    return presentChatCompanion(chatId, slot);
  }

  /** Every slot of the user planned again from now (settings changed, or the user wrote again). */
  private async replanUser(userId: string, settings: repo.SettingsRow, only?: (slot: repo.SlotRow) => boolean) {
    const { db } = this.deps;
    for (const slot of await repo.userSlots(db, userId)) {
      if (only && !only(slot)) continue;
      const at = nextSlot(this.now(), slot.frequency, quiet(settings), () => this.random());
      await repo.saveSlot(db, { chatId: slot.chatId, userId, frequency: slot.frequency, at });
    }
  }

  /**
   * The user wrote in a chat (the chats module tells, never awaited): the silence rule is
   * lifted — her paused slots are planned again — and that chat's next slot is planned from now.
   */
  userWrote(userId: string, chatId: string): void {
    const work = (async () => {
      const { db } = this.deps;
      const { lifted, hasSlot } = await repo.userWrote(db, userId, chatId);
      if (!lifted && !hasSlot) return;
      const settings = await repo.findSettings(db, userId);
      if (!settings) return;
      await this.replanUser(userId, settings, (s) => s.chatId === chatId || (lifted && s.dueAt === null));
    })().catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not plan the companion after a message'));
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Waits for the plans `userWrote` started (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Claims and writes due slots, a batch at a time, until none is due (or `signal` aborts):
   * the recurring job's work on whichever replica runs it. Answers how each slot ended.
   */
  async runDue(signal: AbortSignal, maxBatches = Number.POSITIVE_INFINITY): Promise<Record<string, number>> {
    const { db, options } = this.deps;
    const counts: Record<string, number> = {};
    for (let batch = 0; batch < maxBatches && !signal.aborted; batch++) {
      const claimed = await repo.claimDue(db, this.now(), options.batchSize, options.leaseSeconds);
      if (claimed.length === 0) break;
      const states = await repo.careStates(
        db,
        [...new Set(claimed.map((slot) => slot.userId))],
        new Date(this.now().getTime() - CARE.crisisPauseDays * 24 * 3600_000),
      );
      let next = 0;
      const worker = async () => {
        while (next < claimed.length && !signal.aborted) {
          const slot = claimed[next++]!;
          const result = await this.process(slot, states.get(slot.userId), signal);
          counts[result] = (counts[result] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency, claimed.length) }, worker));
      if (claimed.length < options.batchSize) break;
    }
    return counts;
  }

  /** One claimed slot: the care rules, then her message, then the next slot. */
  private async process(slot: repo.ClaimedSlot, state: repo.CareState | undefined, signal: AbortSignal) {
    const { db, log } = this.deps;
    const now = this.now();
    const move = (at: Date | null) => repo.moveSlot(db, slot.chatId, slot.slotAt, at);
    if (!state) {
      await move(null);
      return 'gone' as const;
    }
    const settings = quiet(state.settings);
    const planNext = () => move(nextSlot(now, slot.frequency, settings, () => this.random()));
    if (slot.attempts > CARE.maxAttempts) {
      log.warn({ chatId: slot.chatId, attempts: slot.attempts - 1 }, 'a proactive slot failed twice; skipped');
      await planNext();
      return 'skipped_retries' as const;
    }
    if (now.getTime() - slot.slotAt.getTime() > this.deps.options.catchUpMs) {
      log.info({ chatId: slot.chatId }, 'a proactive slot missed during downtime; skipped');
      await planNext();
      return 'skipped_stale' as const;
    }
    const rule = this.careRule(state, now);
    if (rule) {
      await move(rule.at);
      return rule.result;
    }
    // The cap and the silence rule, taken for the whole cluster before her message is written.
    const day = localTime(now, settings.timeZone).day;
    if (!(await repo.reserveSend(db, slot.userId, day, CARE.maxUnanswered))) {
      const [fresh] = (await repo.careStates(db, [slot.userId], new Date(0))).values();
      const again = fresh ? this.careRule({ ...fresh, crisisAt: null }, now) : null;
      await move(again?.at ?? new Date(now.getTime() + 15 * 60_000));
      return again?.result ?? ('deferred_cap' as const);
    }
    let outcome: ProactiveOutcome;
    try {
      outcome = await this.deps.chats.writeFirst({
        chatId: slot.chatId,
        userId: slot.userId,
        slotAt: slot.slotAt,
        locale: toLocale(state.locale),
        localTime: localTimeText(now, settings.timeZone),
        signal,
      });
    } catch (error) {
      await repo.releaseSend(db, slot.userId, day).catch(() => undefined);
      // Retried once (the next claim is its second attempt), then skipped.
      log.warn({ err: error, chatId: slot.chatId, attempt: slot.attempts }, 'a proactive message failed');
      const retry = new Date(now.getTime() + this.deps.options.retryDelaySeconds * 1000);
      await repo.retrySlotAt(db, slot.chatId, slot.slotAt, retry).catch(() => undefined);
      return 'failed' as const;
    }
    if (outcome.status !== 'written') await repo.releaseSend(db, slot.userId, day);
    switch (outcome.status) {
      case 'not_found':
        await repo.deleteSlot(db, slot.chatId, slot.userId);
        return 'gone' as const;
      case 'busy':
        // The user is chatting right now: she does not interrupt.
        await move(new Date(now.getTime() + (30 + Math.floor(this.random() * 30)) * 60_000));
        return 'deferred_busy' as const;
      case 'duplicate':
        await planNext();
        return 'duplicate' as const;
      case 'refused':
        await planNext();
        return 'refused' as const;
      case 'written':
        await repo.markDigestPending(db, slot.userId, now);
        await planNext();
        await this.deps
          .notify({
            userId: slot.userId,
            chatId: slot.chatId,
            messageId: outcome.message.id,
            characterName: outcome.characterName,
            characterSlug: outcome.characterSlug,
            characterPicture: outcome.characterPicture,
            firstWords: firstWords(outcome.message.text),
            explicit: outcome.explicitPicture,
            settingsUrl: new URL('/settings#companion', this.deps.publicUrl).toString(),
          })
          .catch((error: unknown) => log.warn({ err: error, chatId: slot.chatId }, 'a proactive notice failed'));
        return 'sent' as const;
    }
  }

  /**
   * The care rules (docs/companion.md "Care rules"), in order; null when she may write now.
   * `at` is when the slot is planned instead (null: paused until the user writes).
   */
  careRule(state: repo.CareState, now: Date): { result: SlotResult; at: Date | null } | null {
    const settings = quiet(state.settings);
    const random = () => this.random();
    const day = 24 * 3600_000;
    // A banned or not-adult account: asked again in a day (an unban resumes them).
    if (state.bannedAt || (state.age !== null && state.age < 18))
      return { result: 'deferred_account', at: new Date(now.getTime() + day) };
    if (state.crisisAt && now.getTime() - state.crisisAt.getTime() < CARE.crisisPauseDays * day)
      return {
        result: 'deferred_crisis',
        at: afterQuietHours(new Date(state.crisisAt.getTime() + CARE.crisisPauseDays * day + 60_000), settings, random),
      };
    if (state.settings.unanswered >= CARE.maxUnanswered) return { result: 'paused_silence', at: null };
    if (inQuietHours(now, settings)) return { result: 'deferred_quiet', at: afterQuietHours(now, settings, random) };
    if (
      state.settings.day === localTime(now, settings.timeZone).day &&
      state.settings.dayCount >= state.settings.dailyCap
    )
      return { result: 'deferred_cap', at: nextLocalDay(now, settings, random) };
    return null;
  }
}

function quiet(settings: Pick<repo.SettingsRow, 'timeZone' | 'quietStart' | 'quietEnd'>): QuietHours {
  return { timeZone: settings.timeZone, quietStart: settings.quietStart, quietEnd: settings.quietEnd };
}

/** The first words of a message for a notification: one line, at most 120 characters. */
export function firstWords(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 120 ? line : `${line.slice(0, 119).trimEnd()}…`;
}

export type { Frequency };
