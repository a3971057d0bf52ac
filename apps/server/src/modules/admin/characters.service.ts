import {
  CHARACTER_VOICES,
  toLocale,
  type AdminCharacter,
  type AdminCharacterInput,
  type AdminCharacterList,
  type AdminCharacterPatch,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { mailSafe } from '../../lib/templates.js';
import type { BotRow } from '../bots/index.js';
import type { AdminBots, AdminDeps } from './admin-deps.js';
import { recordAudit } from './audit.repository.js';
import { characterSnapshot, presentAdminCharacter } from './characters.presenter.js';
import { findAuthors } from './characters.repository.js';
import { renderCharacterDecisionEmail, type CharacterDecision } from './review.emails.js';

/** The review queue shows this many at once (oldest first). */
const REVIEW_PAGE = 100;

/**
 * The console's Characters section and review queue. Every write runs in one transaction
 * with its audit record (`recordAudit`); the bots module does the work on its own rows
 * (`AdminBots`), given the transaction (`within(tx)`).
 */
export class AdminCharactersService {
  constructor(private readonly deps: AdminDeps) {}

  /** A page of characters: their authors and galleries in one query each, whatever the page's size. */
  private async present(rows: BotRow[]): Promise<AdminCharacter[]> {
    const [authors, galleries] = await Promise.all([
      findAuthors(
        this.deps.db,
        rows.map((r) => r.authorId),
      ),
      this.deps.bots.listGalleries(rows.map((r) => r.id)),
    ]);
    return rows.map((row) =>
      presentAdminCharacter(
        row,
        galleries.get(row.id) ?? [],
        (row.authorId && authors.get(row.authorId)) || null,
        this.deps.urls,
      ),
    );
  }

  async one(id: string): Promise<AdminCharacter> {
    const row = await this.deps.bots.findBotById(id);
    if (!row || row.kind !== 'character') throw notFound();
    return (await this.present([row]))[0]!;
  }

  async list(query: {
    q?: string;
    scope: 'official' | 'public';
    offset: number;
    size: number;
  }): Promise<AdminCharacterList> {
    const { rows, total } = await this.deps.bots.listManagedBots({
      scope: query.scope,
      search: query.q,
      offset: query.offset,
      limit: query.size,
    });
    return { results: await this.present(rows), total };
  }

  voices() {
    return { voices: CHARACTER_VOICES.map((v) => ({ id: v.id, sex: v.sex })) };
  }

  /** Runs a write and its audit record in one transaction; answers the character afterwards. */
  private async write(
    actorId: string,
    action: string,
    work: (bots: AdminBots) => Promise<{ before: BotRow | null; after: BotRow; reason?: string | null }>,
  ): Promise<{ row: BotRow; character: AdminCharacter }> {
    const row = await this.deps.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      const { before, after, reason } = await work(this.deps.bots.within(db));
      await recordAudit(db, actorId, {
        action,
        targetType: 'character',
        targetId: after.id,
        before: before ? characterSnapshot(before) : null,
        after: characterSnapshot(after),
        reason: reason ?? null,
      });
      return after;
    });
    return { row, character: await this.one(row.id) };
  }

  async create(actorId: string, input: AdminCharacterInput): Promise<AdminCharacter> {
    return (
      await this.write(actorId, 'character.create', async (bots) => ({
        before: null,
        after: await bots.createOfficialBot(input),
      }))
    ).character;
  }

  async update(actorId: string, id: string, patch: AdminCharacterPatch): Promise<AdminCharacter> {
    return (await this.write(actorId, 'character.update', (bots) => bots.updateManagedBot(id, patch))).character;
  }

  async importCard(actorId: string, file: Buffer, visibility: 'public' | 'private'): Promise<AdminCharacter> {
    // The card is read and judged and its avatar stored first (no transaction held meanwhile);
    // the row and its audit record are written in one transaction, the avatar deleted if it fails.
    const prepared = await this.deps.bots.prepareOfficialCard(file, visibility);
    try {
      return (
        await this.write(actorId, 'character.import', async (bots) => ({
          before: null,
          after: await bots.insertPreparedCard(prepared),
        }))
      ).character;
    } catch (error) {
      await prepared.discard();
      throw error;
    }
  }

  /** Publishes or unpublishes an official character. */
  async setVisibility(actorId: string, id: string, visibility: 'public' | 'private'): Promise<AdminCharacter> {
    return (
      await this.write(actorId, visibility === 'public' ? 'character.publish' : 'character.unpublish', async (bots) => {
        const current = await bots.lockBot(id);
        if (!current.isOfficial) throw new AppError('not_official', { status: 409 });
        return bots.setBotVisibility(id, visibility);
      })
    ).character;
  }

  /**
   * Takes any public character (official or custom) out of public view, with a reason; a custom
   * one's author is told by e-mail and sees the reason on it (bots `unpublishBot`).
   */
  async unpublish(actorId: string, id: string, reason: string): Promise<AdminCharacter> {
    const { row, character } = await this.write(actorId, 'character.unpublish', async (bots) => ({
      ...(await bots.unpublishBot(id, reason)),
      reason,
    }));
    if (!row.isOfficial) await this.tellAuthor(row, 'character_unpublished', reason);
    return character;
  }

  async addPicture(actorId: string, id: string, file: Buffer): Promise<AdminCharacter> {
    const existing = await this.deps.bots.findBotById(id);
    if (!existing || existing.kind !== 'character') throw notFound();
    // The bots module's photo check (sanitise, moderation) before anything is written.
    const stored = await this.deps.bots.storeGalleryFile(id, file);
    try {
      return (await this.write(actorId, 'character.picture_add', (bots) => bots.addGalleryPicture(id, stored)))
        .character;
    } catch (error) {
      await this.deps.storage.delete(stored.key).catch(() => {});
      throw error;
    }
  }

  async removePicture(actorId: string, id: string, pictureId: string): Promise<AdminCharacter> {
    let removedKey: string | null = null;
    let needsAvatar = false;
    const { row } = await this.write(actorId, 'character.picture_delete', async (bots) => {
      const result = await bots.removeGalleryPicture(id, pictureId);
      removedKey = result.picture.mediaKey;
      needsAvatar = result.needsAvatar;
      return result;
    });
    if (removedKey) await this.deps.storage.delete(removedKey).catch(() => {});
    if (needsAvatar) await this.deps.bots.giveDrawnAvatar(row);
    return this.one(id);
  }

  async reorderPictures(actorId: string, id: string, order: string[]): Promise<AdminCharacter> {
    return (
      await this.write(actorId, 'character.picture_order', async (bots) => {
        const before = await bots.lockBot(id);
        await bots.reorderGallery(id, order);
        return { before, after: before };
      })
    ).character;
  }

  async setPictureVisibility(
    actorId: string,
    id: string,
    pictureId: string,
    visibility: 'public' | 'private',
  ): Promise<AdminCharacter> {
    return (
      await this.write(actorId, 'character.picture_visibility', (bots) =>
        bots.setPictureVisibility(id, pictureId, visibility),
      )
    ).character;
  }

  async chooseAvatar(actorId: string, id: string, pictureId: string): Promise<AdminCharacter> {
    return (await this.write(actorId, 'character.avatar', (bots) => bots.chooseAvatar(id, pictureId))).character;
  }

  // ------------------------------------------------------------------------------------
  // The review queue
  // ------------------------------------------------------------------------------------

  async pending(): Promise<{ results: AdminCharacter[] }> {
    return { results: await this.present(await this.deps.bots.listPendingReview(REVIEW_PAGE)) };
  }

  async pendingCount(): Promise<{ count: number }> {
    return { count: await this.deps.bots.countPendingReview() };
  }

  async approve(actorId: string, id: string): Promise<AdminCharacter> {
    return (
      await this.write(actorId, 'character.approve', (bots) =>
        bots.decideReview(id, { approve: true, reviewerId: actorId }),
      )
    ).character;
  }

  /** Rejects with a reason, then tells the author by e-mail in their language. */
  async reject(actorId: string, id: string, reason: string): Promise<AdminCharacter> {
    const { row, character } = await this.write(actorId, 'character.reject', async (bots) => ({
      ...(await bots.decideReview(id, { approve: false, reviewerId: actorId, reason })),
      reason,
    }));
    await this.tellAuthor(row, 'character_rejected', reason);
    return character;
  }

  /**
   * E-mails a character's author an administrator's decision, in the author's language. The
   * decision is already committed (and shown on the character): a failed send is logged, not
   * undone; the mail queue itself retries.
   */
  private async tellAuthor(row: BotRow, kind: CharacterDecision, reason: string): Promise<void> {
    const author = row.authorId ? (await findAuthors(this.deps.db, [row.authorId])).get(row.authorId) : null;
    if (!author) return;
    const rendered = renderCharacterDecisionEmail({
      kind,
      locale: toLocale(author.locale) ?? 'en',
      edition: this.deps.edition,
      name: author.name,
      character: row.name,
      reason,
      actionUrl: new URL(`/${row.slug}`, this.deps.publicUrl).toString(),
    });
    try {
      await this.deps.mail.send({ to: mailSafe(author.email), ...rendered, kind, userId: author.id, headers: {} });
    } catch (error) {
      this.deps.log.error({ err: error, kind }, 'sending e-mail failed');
    }
  }
}
