import {
  PICTURE_WIDTHS,
  TAKEDOWN_DEADLINE_HOURS,
  parseTakedownItem,
  toLocale,
  type AdminTakedownDetail,
  type AdminTakedownItem,
  type AdminTakedownList,
  type AdminTakedownListQuery,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { renderNoticeEmail } from '../../lib/notice-email.js';
import { ownedChatMediaKeys } from '../accounts/index.js';
import { deleteTransform, transformOfMediaKey } from '../transforms/index.js';
import { blurredKeyOf, characterFilePrefix, deleteCharacters, originalOfBlurredKey } from '../bots/index.js';
import type { AdminDeps } from './admin-deps.js';
import { recordAudit } from './audit.repository.js';
import * as repo from './takedown.repository.js';
import { presentTakedownDetail, presentTakedownSummary } from './takedown.presenter.js';

/** Tries per file before a deletion is reported as failed. */
const FILE_DELETE_TRIES = 3;

const sized = (key: string) => [key, ...PICTURE_WIDTHS.map((w) => `${key}.w${w}.webp`)];

/**
 * A file and the copies made from it: its resized copies (`<key>.w256.webp`, …) and an
 * explicit picture's blurred copy with its own resized copies (`<key>.blurred.webp…`).
 */
export const withVariants = (key: string): string[] => [...sized(key), ...sized(blurredKeyOf(key))];

const takedownClosed = () => new AppError('takedown_closed', { status: 409, detail: 'This request is closed' });

/**
 * Closes an open request (409 `takedown_closed` when another administrator closed it first)
 * and records the outcome in the audit log, in the caller's transaction.
 */
async function closeAudited(
  tx: Database,
  adminId: string,
  request: { id: string; reference: string },
  outcome: { status: 'removed' | 'rejected'; resolution: string | null; removed: Record<string, unknown> | null },
): Promise<void> {
  const closed = await repo.closeTakedown(tx, request.id, { ...outcome, handledBy: adminId });
  if (!closed) throw takedownClosed();
  await recordAudit(tx, adminId, {
    action: outcome.status === 'removed' ? 'takedown.remove' : 'takedown.reject',
    targetType: 'takedown',
    targetId: request.id,
    before: { status: 'open', reference: request.reference },
    after: { status: outcome.status, ...outcome.removed },
    reason: outcome.resolution,
  });
}

/** What one removal takes down. */
interface RemovalPlan {
  characters: string[];
  messages: string[];
  media: string[];
  /** Gallery rows and avatars that lose a taken-down file (their character stays). */
  pictureRows: string[];
  avatars: { botId: string; key: string }[];
  /** Style transforms one of whose files is named: the row goes, and both its files. */
  transforms: { userId: string; id: string }[];
  /** Files to delete after the commit, and prefixes (a character's folder). */
  files: Set<string>;
  prefixes: Set<string>;
  /** Inputs with nothing (left) to take down. */
  notFound: string[];
}

/**
 * The console's takedown requests (docs/admin.md "Takedown"): the list with its 48-hour
 * clock, each request's items read against what is stored, removal everywhere the content
 * is stored (rows in one transaction with the audit record, files after the commit), and
 * rejection; the reporter is told by e-mail either way.
 */
export class AdminTakedownService {
  constructor(private readonly deps: AdminDeps) {}

  async list(query: Required<AdminTakedownListQuery>, now = new Date()): Promise<AdminTakedownList> {
    const rows = await repo.listTakedowns(this.deps.db, { status: query.status, order: query.order, limit: 200 });
    return { items: rows.map((row) => presentTakedownSummary(row, now)), now: now.toISOString() };
  }

  /** Open requests and, of them, those past their 48 hours. */
  async counts(now = new Date()): Promise<{ count: number; overdue: number }> {
    const overdueBefore = new Date(now.getTime() - TAKEDOWN_DEADLINE_HOURS * 3600_000);
    const { open, overdue } = await repo.countOpenTakedowns(this.deps.db, overdueBefore);
    return { count: open, overdue };
  }

  async detail(id: string, now = new Date()): Promise<AdminTakedownDetail> {
    const row = await this.require(id);
    const items = await Promise.all(row.items.map((input) => this.resolveItem(input)));
    return presentTakedownDetail(row, items, now);
  }

  /** Reads one item against what the site stores now. */
  async resolveItem(input: string): Promise<AdminTakedownItem> {
    const base = { input, found: false, character: null, media: null, message: null } as const;
    const target = parseTakedownItem(input, this.deps.publicUrl);
    if (target === 'foreign' || target === 'invalid') return { ...base, kind: target };
    const db = this.deps.db;
    if (target.kind === 'character') {
      const bot = await repo.findCharacterBySlug(db, target.slug);
      if (!bot) return { ...base, kind: 'character' };
      const keys = [...new Set([bot.avatarKey, ...(await repo.findCharacterPictures(db, bot.id))])].filter(
        (k): k is string => Boolean(k),
      );
      return {
        ...base,
        kind: 'character',
        found: true,
        character: {
          id: bot.id,
          slug: bot.slug,
          name: bot.name,
          description: bot.description,
          author_email: bot.authorEmail,
          pictures: keys.map((key) => ({ key, url: this.signed(key) })),
        },
      };
    }
    if (target.kind === 'media') {
      const [owners, holders, exists] = await Promise.all([
        repo.findCharactersWithMedia(db, target.key),
        repo.findMessagesWithMedia(db, target.key),
        this.deps.storage.exists(target.key).catch(() => false),
      ]);
      const owner = owners[0] ? 'character' : holders[0] ? 'message' : 'none';
      return {
        ...base,
        kind: 'media',
        found: exists || owners.length > 0 || holders.length > 0,
        media: {
          key: target.key,
          url: this.signed(target.key),
          owner,
          owner_id: owners[0]?.id ?? holders[0]?.id ?? null,
        },
      };
    }
    const message = await repo.findMessageWithContext(db, target.id);
    if (!message) return { ...base, kind: 'message' };
    return {
      ...base,
      kind: 'message',
      found: true,
      message: {
        id: message.id,
        role: message.role,
        text: message.text,
        created_at: message.createdAt.toISOString(),
        picture_url: message.mediaKey ? this.signed(message.mediaKey) : null,
        has_audio: Boolean(message.audioKey),
        character: message.character,
        author: message.author,
      },
    };
  }

  /**
   * Takes the chosen items down in one transaction: the request locked and checked open, the
   * plan read with the rows it deletes or changes locked (content added meanwhile cannot be
   * left behind with its files gone), the rows deleted, the request closed and the audit
   * record written. Then the files (each tried up to 3 times; what could not be deleted is
   * logged and kept in `removed.failed_files` for the console), then the reporter's e-mail.
   */
  async remove(adminId: string, id: string, inputs: string[], note: string): Promise<AdminTakedownDetail> {
    const chosen = [...new Set(inputs)];
    const { row, plan, removed } = await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const row = await repo.lockTakedown(tx, id);
      if (!row) throw new AppError('not_found', { status: 404 });
      if (row.status !== 'open') throw takedownClosed();
      if (chosen.some((input) => !row.items.includes(input)))
        throw new AppError('validation_error', { status: 400, errors: { items: ['Not an item of this request'] } });
      const plan = await this.plan(tx, chosen);
      const removed: Record<string, unknown> = {
        items: chosen,
        characters: plan.characters,
        messages: plan.messages,
        media: plan.media,
        transforms: plan.transforms.map((transform) => transform.id),
        not_found: plan.notFound,
      };
      await repo.deleteMessages(tx, plan.messages);
      await repo.deleteCharacterPictures(tx, plan.pictureRows);
      for (const avatar of plan.avatars) await repo.clearCharacterAvatar(tx, avatar.botId, avatar.key);
      await deleteCharacters(tx, plan.characters);
      for (const transform of plan.transforms) {
        const gone = await deleteTransform(tx, transform.id, transform.userId);
        if (gone) for (const key of [gone.originalKey, gone.resultKey]) if (key) plan.files.add(key);
      }
      await closeAudited(
        tx,
        adminId,
        { id, reference: row.reference },
        { status: 'removed', resolution: note || null, removed },
      );
      return { row, plan, removed };
    });

    const failed = await this.deleteFiles(plan);
    if (failed.length) {
      this.deps.log.error(
        { takedown: row.reference, failed: failed.length },
        'takedown: files could not be deleted; listed in the request',
      );
      await repo.setTakedownRemoved(this.deps.db, id, { ...removed, failed_files: failed });
    }
    await this.tell(row, 'takedown_removed', note);
    return this.detail(id);
  }

  async reject(adminId: string, id: string, reason: string): Promise<AdminTakedownDetail> {
    const row = await this.require(id);
    if (row.status !== 'open') throw takedownClosed();
    await this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      await closeAudited(
        tx,
        adminId,
        { id, reference: row.reference },
        { status: 'rejected', resolution: reason, removed: null },
      );
    });
    await this.tell(row, 'takedown_rejected', reason);
    return this.detail(id);
  }

  /** What the inputs take down, read in the removal's transaction with its rows locked. */
  private async plan(db: Database, inputs: string[]): Promise<RemovalPlan> {
    const lock = { lock: true };
    const plan: RemovalPlan = {
      characters: [],
      messages: [],
      media: [],
      pictureRows: [],
      avatars: [],
      transforms: [],
      files: new Set(),
      prefixes: new Set(),
      notFound: [],
    };
    const addMessageFiles = (rows: repo.MessageFiles[]) => {
      for (const row of rows) for (const key of ownedChatMediaKeys(row.userId, [row])) plan.files.add(key);
    };
    for (const input of inputs) {
      const target = parseTakedownItem(input, this.deps.publicUrl);
      if (target === 'foreign' || target === 'invalid') {
        plan.notFound.push(input);
        continue;
      }
      if (target.kind === 'character') {
        const bot = await repo.findCharacterBySlug(db, target.slug, lock);
        if (!bot) {
          plan.notFound.push(input);
          continue;
        }
        plan.characters.push(bot.id);
        // Its folder (avatar, gallery, resized copies) and the pictures and voice of its chats.
        plan.prefixes.add(characterFilePrefix(bot.id));
        for (const key of await repo.findCharacterPictures(db, bot.id, lock)) plan.files.add(key);
        if (bot.avatarKey) plan.files.add(bot.avatarKey);
        addMessageFiles(await repo.findCharacterChatFiles(db, bot.id, lock));
      } else if (target.kind === 'media') {
        // A blurred copy's URL (what the public sees of an explicit picture) names its original.
        target.key = originalOfBlurredKey(target.key) ?? target.key;
        const owners = await repo.findCharactersWithMedia(db, target.key, lock);
        const holders = await repo.findMessagesWithMedia(db, target.key, lock);
        const exists = await this.deps.storage.exists(target.key).catch(() => true);
        if (!owners.length && !holders.length && !exists) {
          plan.notFound.push(input);
          continue;
        }
        const transform = transformOfMediaKey(target.key);
        if (transform) plan.transforms.push(transform);
        plan.media.push(target.key);
        plan.files.add(target.key);
        for (const owner of owners) {
          plan.pictureRows.push(...owner.pictureIds);
          if (owner.avatar) plan.avatars.push({ botId: owner.id, key: target.key });
        }
        // A chat picture goes with its message (its blurred preview or original too).
        plan.messages.push(...holders.map((h) => h.id));
        addMessageFiles(holders);
      } else {
        const [message] = await repo.findMessagesFiles(db, [target.id], lock);
        if (!message) {
          plan.notFound.push(input);
          continue;
        }
        plan.messages.push(message.id);
        addMessageFiles([message]);
      }
    }
    plan.characters = [...new Set(plan.characters)];
    plan.messages = [...new Set(plan.messages)];
    return plan;
  }

  /** Deletes the plan's files and their resized copies; answers those that could not be deleted. */
  private async deleteFiles(plan: RemovalPlan): Promise<string[]> {
    const failed: string[] = [];
    const attempt = async (what: string, run: () => Promise<void>) => {
      for (let i = 1; i <= FILE_DELETE_TRIES; i++) {
        try {
          await run();
          return;
        } catch (error) {
          if (i === FILE_DELETE_TRIES) {
            this.deps.log.error({ err: error }, 'takedown: a file could not be deleted');
            failed.push(what);
          } else await new Promise((resolve) => setTimeout(resolve, 100 * i));
        }
      }
    };
    for (const key of plan.files)
      for (const file of withVariants(key)) await attempt(file, () => this.deps.storage.delete(file));
    for (const prefix of plan.prefixes) await attempt(`${prefix}/`, () => this.deps.storage.deletePrefix(prefix));
    return failed;
  }

  /** The reporter's e-mail (the outcome), in the request's language. */
  private async tell(row: repo.TakedownRow, kind: 'takedown_removed' | 'takedown_rejected', note: string) {
    const email = renderNoticeEmail({
      kind,
      locale: toLocale(row.locale) ?? 'en',
      edition: this.deps.edition,
      vars: { reference: row.reference },
      quote: note || null,
    });
    try {
      await this.deps.mail.send({ to: row.email, ...email, headers: {}, kind, userId: null });
    } catch (error) {
      this.deps.log.error({ err: error, takedown: row.reference }, 'takedown: the reporter could not be e-mailed');
    }
  }

  private signed(key: string): string {
    return this.deps.urls.url(key, { signed: true })!;
  }

  private async require(id: string): Promise<repo.TakedownRow> {
    const row = await repo.findTakedown(this.deps.db, id);
    if (!row) throw new AppError('not_found', { status: 404 });
    return row;
  }
}
