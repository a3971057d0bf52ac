import { randomBytes } from 'node:crypto';
import type {
  Chat,
  GroupCreateBody,
  Locale,
  Scene,
  SceneInvite,
  SceneInviteCreateBody,
  SceneInvitePreview,
  SceneJoinBody,
  SceneUpdateBody,
} from '@reverie/shared';
import { MessageKind, SCENE_CHARACTERS_MAX, SCENE_INVITE_HOURS_DEFAULT, SCENE_PEOPLE_MAX } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { WindowCounter } from '../../providers/limits/index.js';
import type { BotRow } from '../bots/index.js';
import { findOwnPersona } from './chat-context.repository.js';
import type { ChatRow } from './chats.repository.js';
import type { ChatBots } from './chats.service.js';
import { insertMessages } from './messages.repository.js';
import { presentFace, presentMessage, presentSceneSummary } from './chats.presenter.js';
import { groupDisclosureText } from './safety.js';
import { loadCast, personName, type SceneCast } from './scene-cast.js';
import type { SceneEvents } from './scene-events.js';
import {
  addSceneCharacter,
  findInvite,
  findJoiner,
  findPersonRow,
  findSceneChat,
  insertGroupChat,
  insertInvite,
  joinScene,
  listInvites,
  removePerson,
  removeSceneCharacter,
  revokeInvite,
  sceneFaces,
  setCharacterMuted,
  setMemberPersona,
  updateSceneSetting,
  type InviteRow,
} from './scenes.repository.js';

export interface ScenesDeps {
  db: Database;
  bots: ChatBots;
  urls: MediaUrls;
  events: SceneEvents;
  limits: WindowCounter;
  /** The web app's address: invite links point there (`/scene/join/{code}`). */
  publicUrl: string;
  /** The chat as the API shows it (the chats service). */
  presentChat: (userId: string, chatId: string) => Promise<Chat>;
  now?: () => Date;
}

const ownerOnly = () => new AppError('scene_owner_only', { status: 403 });
/** Invite links a scene's owner may make per hour. */
const INVITES_PER_HOUR = 30;

/**
 * Group scenes (issue 32, docs/groups.md): making one, its characters and setting, its people,
 * invite links and joining. Replies, turns and "Continue" are `RepliesService`'s.
 */
export class ScenesService {
  constructor(private readonly deps: ScenesDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The chat for one of its people; 404 for anyone else, and for a chat that is no scene when `group`. */
  async access(userId: string, chatId: string, group = true): Promise<{ chat: ChatRow; role: 'owner' | 'member' }> {
    const found = await findSceneChat(this.deps.db, chatId, userId).catch(() => null);
    if (!found || (group && !found.chat.isGroup)) throw notFound();
    return found;
  }

  private async owned(userId: string, chatId: string, group = true): Promise<ChatRow> {
    const { chat, role } = await this.access(userId, chatId, group);
    if (role !== 'owner') throw ownerOnly();
    return chat;
  }

  /** A character the user may chat with, by id or slug. */
  private async character(userId: string, ref: string): Promise<BotRow> {
    const bot =
      (await this.deps.bots.findVisibleBotById(ref, userId).catch(() => null)) ??
      (await this.deps.bots.findVisibleBotBySlug(ref, userId).catch(() => null));
    if (!bot || bot.kind !== 'character') throw notFound();
    return bot;
  }

  /** `POST /api/chat/group`: a new group chat, with the AI disclosure as its first message. */
  async create(userId: string, body: GroupCreateBody, locale: Locale): Promise<Chat> {
    const found: BotRow[] = [];
    for (const ref of body.bot_ids) {
      const bot = await this.character(userId, ref);
      if (!found.some((b) => b.id === bot.id)) found.push(bot);
    }
    if (found.length < 2)
      throw new AppError('validation_error', { status: 400, errors: { bot_ids: ['scene_characters_min'] } });
    if (body.persona_id && !(await findOwnPersona(this.deps.db, body.persona_id, userId))) throw notFound();
    const chat = await insertGroupChat(this.deps.db, {
      userId,
      botIds: found.map((b) => b.id),
      personaId: body.persona_id ?? null,
      title: body.title ?? null,
      place: body.place ?? '',
      situation: body.situation ?? '',
      turnMode: body.turn_mode ?? 'auto',
    });
    await insertMessages(
      this.deps.db,
      chat.id,
      [
        {
          chatId: chat.id,
          userId,
          role: 'system',
          kind: MessageKind.Text,
          text: groupDisclosureText(
            locale,
            found.map((b) => b.name),
          ),
          notice: 'ai_disclosure',
          state: 'done',
        },
      ],
      { disclosedAt: this.now() },
    );
    return this.deps.presentChat(userId, chat.id);
  }

  /** `GET /api/chat/{id}/scene`. */
  async get(userId: string, chatId: string): Promise<Scene> {
    const { chat, role } = await this.access(userId, chatId);
    return this.present(await loadCast(this.deps.db, chat), userId, role);
  }

  private async present(cast: SceneCast, userId: string, role: 'owner' | 'member'): Promise<Scene> {
    const online = new Set(
      await this.deps.events.online(
        cast.chat.id,
        cast.people.map((p) => p.userId),
      ),
    );
    return {
      chat_id: cast.chat.id,
      title: cast.chat.title,
      place: cast.chat.scenePlace,
      situation: cast.chat.sceneSituation,
      turn_mode: cast.chat.turnMode,
      characters: cast.characters.map(({ link, bot }) => ({
        bot_id: bot.id,
        slug: bot.slug,
        name: bot.name,
        avatar_url: presentFace(bot, cast.chat, this.deps.urls).avatar_url,
        muted: link.muted,
        position: link.position,
      })),
      people: cast.people.map((p) => ({
        user_id: p.userId,
        name: personName(p),
        persona_id: p.personaId,
        avatar_url: p.personaAvatarUrl,
        role: p.role,
        online: online.has(p.userId),
        joined_at: p.joinedAt.toISOString(),
      })),
      me: { user_id: userId, role },
      continue_remaining: cast.chat.continueRemaining,
    };
  }

  /** Re-reads the scene after a change and tells its people. */
  private async changed(userId: string, chatId: string): Promise<Scene> {
    await this.deps.events.changed(chatId).catch(() => undefined);
    return this.get(userId, chatId);
  }

  /** `PATCH /api/chat/{id}/scene` (owner). */
  async update(userId: string, chatId: string, body: SceneUpdateBody): Promise<Scene> {
    await this.owned(userId, chatId);
    await updateSceneSetting(this.deps.db, chatId, {
      ...(body.place !== undefined ? { scenePlace: body.place } : {}),
      ...(body.situation !== undefined ? { sceneSituation: body.situation } : {}),
      ...(body.turn_mode !== undefined ? { turnMode: body.turn_mode } : {}),
    });
    return this.changed(userId, chatId);
  }

  /** `POST /api/chat/{id}/scene/characters` (owner): a one-to-one chat becomes a group; its history stays. */
  async addCharacter(userId: string, chatId: string, ref: string): Promise<Scene> {
    await this.owned(userId, chatId, false);
    const bot = await this.character(userId, ref);
    const outcome = await addSceneCharacter(this.deps.db, chatId, bot.id, SCENE_CHARACTERS_MAX);
    if (outcome === 'full') throw new AppError('scene_full', { status: 409 });
    if (outcome === 'present') throw new AppError('already_in_scene', { status: 409 });
    return this.changed(userId, chatId);
  }

  /** `DELETE /api/chat/{id}/scene/characters/{bot_id}` (owner). */
  async removeCharacter(userId: string, chatId: string, botId: string): Promise<Scene> {
    await this.owned(userId, chatId);
    const outcome = await removeSceneCharacter(this.deps.db, chatId, botId).catch(() => 'absent' as const);
    if (outcome === 'absent') throw notFound();
    if (outcome === 'last') throw new AppError('scene_last_character', { status: 409 });
    return this.changed(userId, chatId);
  }

  /** `PATCH /api/chat/{id}/scene/characters/{bot_id}`: any person of the scene mutes or unmutes her. */
  async mute(userId: string, chatId: string, botId: string, muted: boolean): Promise<Scene> {
    await this.access(userId, chatId);
    if (!(await setCharacterMuted(this.deps.db, chatId, botId, muted).catch(() => false))) throw notFound();
    return this.changed(userId, chatId);
  }

  /** `PATCH /api/chat/{id}/scene/me`: the persona the scene sees me as (the owner's is the chat's persona). */
  async setPersona(userId: string, chatId: string, personaId: string | null): Promise<Scene> {
    const { role } = await this.access(userId, chatId);
    if (personaId && !(await findOwnPersona(this.deps.db, personaId, userId))) throw notFound();
    if (role === 'owner') await updateSceneSetting(this.deps.db, chatId, { personaId });
    else await setMemberPersona(this.deps.db, chatId, userId, personaId);
    return this.changed(userId, chatId);
  }

  /** A person is typing: the others see it for a few seconds (at most one mark every 2 s counts). */
  async typing(userId: string, chatId: string): Promise<void> {
    const { chat } = await this.access(userId, chatId);
    const { count } = await this.deps.limits.hit(`scene-typing:${chatId}:${userId}`, 2000);
    if (count > 1) return;
    const cast = await loadCast(this.deps.db, chat);
    const me = cast.people.find((p) => p.userId === userId);
    if (me) await this.deps.events.typing(chatId, userId, personName(me));
  }

  // --- Invites ---------------------------------------------------------------------------------

  private presentInvite(row: InviteRow & { joined: number }): SceneInvite {
    return {
      id: row.id,
      code: row.code,
      url: `${this.deps.publicUrl.replace(/\/$/, '')}/scene/join/${row.code}`,
      expires_at: row.expiresAt.toISOString(),
      max_members: row.maxMembers,
      joined: row.joined,
      revoked: row.revokedAt !== null,
      created_at: row.createdAt.toISOString(),
    };
  }

  /** `POST /api/chat/{id}/scene/invites` (owner): a new link (a one-to-one chat becomes a scene). */
  async createInvite(userId: string, chatId: string, body: SceneInviteCreateBody): Promise<SceneInvite> {
    await this.owned(userId, chatId);
    const { count, ttlMs } = await this.deps.limits.hit(`scene-invites:${userId}`, 3_600_000);
    if (count > INVITES_PER_HOUR)
      throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(Math.ceil(ttlMs / 1000)) } });
    const hours = body.expires_in_hours ?? SCENE_INVITE_HOURS_DEFAULT;
    const row = await insertInvite(this.deps.db, {
      chatId,
      code: randomBytes(18).toString('base64url'),
      expiresAt: new Date(this.now().getTime() + hours * 3_600_000),
      maxMembers: body.max_members ?? SCENE_PEOPLE_MAX,
    });
    return this.presentInvite({ ...row, joined: 0 });
  }

  async listInvites(userId: string, chatId: string): Promise<{ results: SceneInvite[] }> {
    await this.owned(userId, chatId);
    return { results: (await listInvites(this.deps.db, chatId)).map((r) => this.presentInvite(r)) };
  }

  async revokeInvite(userId: string, chatId: string, inviteId: string): Promise<void> {
    await this.owned(userId, chatId);
    if (!(await revokeInvite(this.deps.db, chatId, inviteId).catch(() => false))) throw notFound();
  }

  /** An invite that can still be used: unknown 404, revoked or expired 410, a blocked person 403. */
  private async usableInvite(code: string, userId: string) {
    const found = await findInvite(this.deps.db, code).catch(() => null);
    if (!found || !found.chat.isGroup) throw new AppError('invite_not_found', { status: 404 });
    if (found.invite.revokedAt) throw new AppError('invite_revoked', { status: 410 });
    if (found.invite.expiresAt.getTime() <= this.now().getTime()) throw new AppError('invite_expired', { status: 410 });
    const person = await findPersonRow(this.deps.db, found.chat.id, userId);
    if (person?.blocked) throw new AppError('scene_blocked', { status: 403 });
    return { ...found, person };
  }

  /** `GET /api/scene-invites/{code}`: what the invited person sees before joining. */
  async preview(userId: string, code: string): Promise<SceneInvitePreview> {
    const { invite, chat, person } = await this.usableInvite(code, userId);
    const cast = await loadCast(this.deps.db, chat);
    const faces = await sceneFaces(this.deps.db, [chat.id]);
    return {
      chat_id: chat.id,
      title: chat.title,
      place: chat.scenePlace,
      owner_name: personName(cast.people[0]!),
      characters: presentSceneSummary(faces.get(chat.id), chat, userId, this.deps.urls).characters,
      people: cast.people.length,
      max_members: invite.maxMembers,
      expires_at: invite.expiresAt.toISOString(),
      already_member: chat.userId === userId || (person !== null && person.removedAt === null),
    };
  }

  /**
   * `POST /api/scene-invites/{code}/join`: 18+ confirmed (the body, and the account's age when
   * it has one), not banned, not blocked, within the member limit; the joiner gets the AI
   * disclosure as a private message. Answers whether they joined now (false: already in).
   */
  async join(
    userId: string,
    code: string,
    body: SceneJoinBody,
    locale: Locale,
  ): Promise<{ scene: Scene; joined: boolean }> {
    const { invite, chat } = await this.usableInvite(code, userId);
    if (chat.userId === userId) return { scene: await this.get(userId, chat.id), joined: false };
    const joiner = await findJoiner(this.deps.db, userId);
    if (!joiner || joiner.bannedAt) throw new AppError('scene_blocked', { status: 403 });
    if (joiner.age !== null && joiner.age < 18)
      throw new AppError('validation_error', {
        status: 400,
        errors: { adult_confirmed: ['age_confirm_required'] },
      });
    const personaId = body.persona_id ?? null;
    if (personaId && !(await findOwnPersona(this.deps.db, personaId, userId))) throw notFound();
    const outcome = await joinScene(this.deps.db, {
      chatId: chat.id,
      userId,
      personaId,
      inviteId: invite.id,
      maxMembers: invite.maxMembers,
    });
    if (outcome === 'blocked') throw new AppError('scene_blocked', { status: 403 });
    if (outcome === 'full') throw new AppError('scene_full', { status: 409 });
    if (outcome === 'joined') await this.welcome(chat, userId, locale);
    return { scene: await this.get(userId, chat.id), joined: outcome === 'joined' };
  }

  /** The AI disclosure to a person who just joined, private to them (PRODUCT.md §6); the others are told. */
  private async welcome(chat: ChatRow, userId: string, locale: Locale): Promise<void> {
    const cast = await loadCast(this.deps.db, chat);
    const [row] = await insertMessages(this.deps.db, chat.id, [
      {
        chatId: chat.id,
        userId: chat.userId,
        role: 'system',
        kind: MessageKind.Text,
        text: groupDisclosureText(
          locale,
          cast.characters.map((c) => c.bot.name),
        ),
        notice: 'ai_disclosure',
        state: 'done',
        privateTo: userId,
      },
    ]);
    await this.deps.events.message(chat.id, presentMessage(row!, this.deps.urls), userId).catch(() => undefined);
    await this.deps.events.changed(chat.id).catch(() => undefined);
  }

  /** `DELETE /api/chat/{id}/scene/people/{user_id}`: the owner removes someone (block: for good); one's own id: leave. */
  async removePerson(userId: string, chatId: string, targetId: string, block: boolean): Promise<void> {
    const { chat, role } = await this.access(userId, chatId);
    if (targetId === chat.userId) throw new AppError('scene_owner_cannot_leave', { status: 409 });
    if (targetId !== userId && role !== 'owner') throw ownerOnly();
    if (!(await removePerson(this.deps.db, chatId, targetId, role === 'owner' && block).catch(() => false)))
      throw notFound();
    await this.deps.events.removed(chatId, targetId).catch(() => undefined);
  }

  /** The user ids of the scene's people (presence). */
  async peopleOf(chat: ChatRow): Promise<string[]> {
    return (await loadCast(this.deps.db, chat)).people.map((p) => p.userId);
  }
}
