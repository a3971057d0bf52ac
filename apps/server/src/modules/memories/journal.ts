/**
 * Her journal (docs/memory.md "Journal"): per character, off by default. The first user turn
 * of a day (UTC) with the journal on queues one `memory-journal` job for that day (singleton
 * key per pair and day), started after the day ends; it writes a short diary entry in her voice
 * drawn from the memories of that day, once (a unique index per pair and day).
 */
import type { Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { ServiceLog } from '../../lib/logger.js';
import { LANGUAGE_NAMES } from '../../lib/i18n.js';
import type { ChatTurn, LlmProvider } from '../../providers/llm/llm.js';
import { detectMinor, detectSexualContentWithMinor } from '../../providers/moderation/rules-moderation.js';
import * as repo from './memories.repository.js';

export interface JournalJob {
  userId: string;
  botId: string;
  day: string;
  characterName: string;
  userName: string;
  locale: Locale;
}

export function journalPrompt(job: JournalJob, memories: string[]): ChatTurn[] {
  return [
    {
      role: 'system',
      content: [
        `You are ${job.characterName}, a fictional character. Write today's entry of your private diary about your day with ${job.userName}.`,
        `First person, in your own voice, ${LANGUAGE_NAMES[job.locale]}, 3 to 6 sentences, warm and specific.`,
        'Use only what these memories say; invent no new facts, mention no minors, nothing explicit. Answer with the entry only.',
      ].join('\n'),
    },
    { role: 'user', content: `Day: ${job.day}\nMemories:\n${memories.map((m) => `- ${m}`).join('\n')}` },
  ];
}

export class JournalWriter {
  constructor(
    private readonly deps: {
      db: Database;
      llm: Pick<LlmProvider, 'generate' | 'models'>;
      log: Pick<ServiceLog, 'warn'>;
    },
  ) {}

  /** Writes the day's entry when the journal is on, the day had a conversation and memories, and none exists. */
  async run(job: JournalJob, signal?: AbortSignal): Promise<boolean> {
    const { db, llm } = this.deps;
    if (!(await repo.journalEnabled(db, job.userId, job.botId))) return false;
    if (await repo.hasJournalEntry(db, job.userId, job.botId, job.day)) return false;
    if (!(await repo.conversedOn(db, job.userId, job.botId, job.day))) return false;
    const since = new Date(`${job.day}T00:00:00Z`);
    const until = new Date(since.getTime() + 86_400_000);
    const recent = (await repo.recentMemories(db, job.userId, job.botId, 40, { since })).filter(
      (m) => m.updatedAt < until,
    );
    const pinned = await repo.pinnedMemories(db, job.userId, job.botId, 5);
    const used = [...recent, ...pinned.filter((p) => !recent.some((r) => r.id === p.id))].slice(0, 30);
    if (!recent.length) return false;
    let text = '';
    for await (const piece of llm.generate({
      model: llm.models()[0]!.id,
      messages: journalPrompt(
        job,
        used.map((m) => m.text),
      ),
      maxTokens: 350,
      temperature: 0.8,
      signal: signal ?? new AbortController().signal,
    }))
      text += piece;
    text = text.trim().slice(0, 4000);
    if (!text || detectSexualContentWithMinor(text) || detectMinor(text)) {
      this.deps.log.warn({ userId: job.userId }, 'a journal entry was not kept');
      return false;
    }
    const row = await repo.insertJournalEntry(db, {
      userId: job.userId,
      botId: job.botId,
      day: job.day,
      text,
      memoryIds: used.map((m) => m.id),
    });
    return row !== null;
  }
}
