import path from 'node:path';
import type { Readable } from 'node:stream';
import { MessageKind, type Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { translate } from '../../lib/i18n.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { botToCardV3 } from '../bots/index.js';
import { exportUserLorebooks } from '../lorebooks/index.js';
import { exportUserMemories } from '../memories/index.js';
import type { ZipFileWriter } from './archive.js';
import * as repo from './data-export.repository.js';

/** Messages read per query: a chat of any length is read in pages of this many (by default). */
export const MESSAGE_PAGE = 500;

export interface ArchiveSource {
  db: Database;
  storage: MediaStorage;
  userId: string;
  signal?: AbortSignal;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
/** A safe piece of a file name: letters, digits and dashes. */
const slugPart = (value: string, fallback = 'chat') =>
  value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || fallback;
const time = (date: Date) => date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** The user's own files among a message's media: what they see (picture, voice), never a blurred picture's original. */
export function ownedMessageFiles(userId: string, row: Pick<repo.MessageExportRow, 'mediaKey' | 'audioKey'>): string[] {
  const owned = [`chats/${userId}/`, `originals/${userId}/`];
  return [row.mediaKey, row.audioKey].filter(
    (key): key is string => Boolean(key) && owned.some((prefix) => key!.startsWith(prefix)),
  );
}

/** A file's name inside the archive's `media/` folder (its storage key's last part). */
export const archiveMediaName = (key: string) => `media/${path.posix.basename(key)}`;

/**
 * Writes everything the app holds about the user into `zip` (docs/accounts.md "Download my
 * data"): JSON a program can import beside text a person can read. Chats are read in pages,
 * files streamed from storage one at a time; `messagePage`: messages per page (smaller in tests,
 * to put a page's end inside a reply's alternatives).
 */
export async function writeArchive(
  zip: ZipFileWriter,
  source: ArchiveSource,
  messagePage = MESSAGE_PAGE,
): Promise<void> {
  const { db, userId, signal } = source;
  const account = await repo.findAccount(db, userId);
  if (!account) throw new Error('the account is gone');
  const locale = (account.locale as Locale) ?? 'en';
  const t = (key: string, vars: Record<string, string | number> = {}) => translate(locale, `data_export.${key}`, vars);

  await zip.text('README.txt', `${t('readme', { name: account.name })}\n`, signal);
  await zip.text('account.json', json(account), signal);
  await zip.text('settings.json', json(await repo.settingsOf(db, userId)), signal);

  // Characters and personas the user made, as Character Card V3 (any card tool imports them).
  const authored = await repo.authoredBots(db, userId);
  const names = new Map<string, string>();
  for (const bot of authored) {
    names.set(bot.id, bot.name);
    const folder = bot.kind === 'persona' ? 'personas' : 'characters';
    await zip.text(`${folder}/${slugPart(bot.slug)}-${bot.id.slice(0, 8)}.json`, json(botToCardV3(bot)), signal);
  }

  // Chats (every branch is a chat of its own, with where it branched from), in pages.
  const media = new Set<string>();
  const chatList = await repo.userChats(db, userId);
  for (const [index, chat] of chatList.entries()) {
    const folder = `chats/${String(index + 1).padStart(4, '0')}-${slugPart(chat.botSlug)}-${chat.id.slice(0, 8)}`;
    const persona = chat.personaId ? names.get(chat.personaId) : undefined;
    const userName = persona ?? account.name;
    await zip.text(
      `${folder}/chat.json`,
      json({
        ...chat,
        character: { id: chat.botId, name: chat.botName, slug: chat.botSlug },
        sharedHistory: await repo.chatSegmentsOf(db, chat.id),
        overrides: await repo.chatOverridesOf(db, chat.id),
      }),
      signal,
    );
    await zip.stream(
      `${folder}/messages.jsonl`,
      mapPages(source, chat.id, messagePage, (row) => {
        const files = ownedMessageFiles(userId, row);
        for (const key of files) media.add(key);
        const { mediaKey, audioKey, ...rest } = row;
        void mediaKey;
        void audioKey;
        return `${JSON.stringify({ ...rest, files: files.map(archiveMediaName) })}\n`;
      }),
      { compress: true, signal },
    );
    const header =
      `# ${chat.title ?? chat.botName}\n\n` +
      (chat.parentChatId ? `${t('branch_of', { chat: chat.parentChatId })}\n\n` : '');
    await zip.stream(
      `${folder}/transcript.md`,
      prefixed(
        header,
        mapPages(source, chat.id, messagePage, (row) =>
          transcriptLine(row, { userId, userName, character: chat.botName, t }),
        ),
      ),
      { compress: true, signal },
    );
  }

  // Memories with their history, and her journal.
  const memories = await exportUserMemories(db, userId);
  const history = new Map<string, unknown[]>();
  for (const revision of memories.revisions) {
    const list = history.get(revision.memoryId) ?? [];
    list.push({
      change: revision.change,
      origin: revision.origin,
      kind: revision.kind,
      text: revision.text,
      eventDate: revision.eventDate,
      importance: revision.importance,
      pinned: revision.pinned,
      at: revision.createdAt,
    });
    history.set(revision.memoryId, list);
  }
  // Whose memory or entry each is, by name: an id alone tells a person nothing.
  const characters = new Map(
    (
      await repo.charactersOf(db, [...memories.memories.map((m) => m.botId), ...memories.journal.map((e) => e.botId)])
    ).map((bot) => [bot.id, bot]),
  );
  const character = (botId: string) => characters.get(botId) ?? { id: botId, name: null, slug: null };
  await zip.text(
    'memories.json',
    json(
      memories.memories.map(({ dedupeKey, ...memory }) => {
        void dedupeKey;
        return { ...memory, character: character(memory.botId), history: history.get(memory.id) ?? [] };
      }),
    ),
    signal,
  );
  await zip.text(
    'journal.json',
    json(
      memories.journal.map((e) => ({
        characterId: e.botId,
        character: character(e.botId),
        day: e.day,
        text: e.text,
        createdAt: e.createdAt,
      })),
    ),
    signal,
  );

  // Lorebooks (the user's own and their characters'), as World Info JSON any lore tool imports.
  for (const book of await exportUserLorebooks(db, userId))
    await zip.text(`lorebooks/${slugPart(book.name, 'lorebook')}-${book.id.slice(0, 8)}.json`, json(book.file), signal);

  // Desires and payments.
  const ledger = await repo.ledgerOf(db, userId);
  await zip.text(
    'billing/ledger.csv',
    [
      'created_at,amount,reason,reference',
      ...ledger.map((e) => csvRow([e.createdAt.toISOString(), e.amount, e.reason, e.reference])),
    ].join('\n') + '\n',
    signal,
  );
  await zip.text(
    'billing/billing.json',
    json({
      balance: account.desires,
      ledger,
      payments: await repo.paymentsOf(db, userId),
      subscriptions: await repo.subscriptionsOf(db, userId),
    }),
    signal,
  );

  // The pictures and voice messages of the user's chats, as files.
  for (const key of media) {
    const file = await source.storage.stream(key);
    if (!file) continue; // deleted meanwhile
    await zip.stream(archiveMediaName(key), file as Readable & AsyncIterable<Uint8Array>, { compress: false, signal });
  }
}

async function* prefixed(first: string, rest: AsyncIterable<string>): AsyncIterable<string> {
  yield first;
  yield* rest;
}

/**
 * A chat's own messages, page by page (keyset on `seq, id`: a reply's alternatives share their
 * place, `seq`), each turned into a chunk of text.
 */
async function* mapPages(
  source: ArchiveSource,
  chatId: string,
  pageSize: number,
  line: (row: repo.MessageExportRow) => string,
): AsyncIterable<string> {
  let after: repo.MessageCursor = { seq: 0, id: null };
  for (;;) {
    source.signal?.throwIfAborted();
    const page = await repo.messagePage(source.db, source.userId, chatId, after, pageSize);
    if (!page.length) return;
    yield page.map(line).join('');
    const last = page[page.length - 1]!;
    after = { seq: last.seq, id: last.id };
    if (page.length < pageSize) return;
  }
}

function transcriptLine(
  row: repo.MessageExportRow,
  ctx: {
    userId: string;
    userName: string;
    character: string;
    t: (key: string, vars?: Record<string, string | number>) => string;
  },
): string {
  const who = row.role === 'user' ? ctx.userName : row.role === 'bot' ? ctx.character : ctx.t('system');
  const notes: string[] = [];
  if (!row.selected) notes.push(ctx.t('alternative'));
  const lines = [row.text.trim()];
  if (row.kind === MessageKind.Image || row.kind === MessageKind.BlurImage) {
    const picture = row.mediaKey && ownedMessageFiles(ctx.userId, { mediaKey: row.mediaKey, audioKey: null })[0];
    lines.push(`[${ctx.t('picture')}${picture ? `: ${archiveMediaName(picture)}` : ''}]`);
  }
  if (row.audioKey && ownedMessageFiles(ctx.userId, { mediaKey: null, audioKey: row.audioKey }).length)
    lines.push(`[${ctx.t('voice')}: ${archiveMediaName(row.audioKey)}]`);
  const text = lines.filter(Boolean).join('\n\n');
  return `**${who}** · ${time(row.createdAt)}${notes.length ? ` · ${notes.join(', ')}` : ''}\n\n${text}\n\n`;
}

function csvRow(values: (string | number | null)[]): string {
  return values
    .map((value) => {
      const text = value === null ? '' : String(value);
      return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',');
}
