/**
 * Group scenes' rows (issue 32, docs/groups.md): a group chat's characters (`chat_characters`),
 * people (`chat_people`) and invite links (`chat_invites`), and the scene columns of `chats`.
 * Reads `bots` (the characters' cards, the people's personas) and `users` (names, bans) as the
 * chats module's read model does, never writes them.
 */
import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { toLocale, type Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { insertRow, updateAny } from '../../db/rows.js';
import {
  bots,
  chatCharacters,
  chatInvites,
  chatPeople,
  chats,
  messages,
  users,
  type StoredSpeaker,
} from '../../db/schema.js';
import type { ChatRow } from './chats.repository.js';

export type { StoredSpeaker };
export type SceneBotRow = typeof bots.$inferSelect;
export type CharacterLinkRow = typeof chatCharacters.$inferSelect;
export type InviteRow = typeof chatInvites.$inferSelect;

/** A person in a scene (the owner too), with what the scene shows of them. */
export interface ScenePersonRow {
  userId: string;
  role: 'owner' | 'member';
  userName: string;
  personaId: string | null;
  personaName: string | null;
  personaDescription: string | null;
  personaAvatarUrl: string | null;
  joinedAt: Date;
}

/** The chat as one of its people sees it: the owner's row or an active member's; null otherwise. */
export async function findSceneChat(
  db: Database,
  chatId: string,
  userId: string,
): Promise<{ chat: ChatRow; role: 'owner' | 'member' } | null> {
  const [row] = await db
    .select({ chat: chats, member: chatPeople.userId })
    .from(chats)
    .leftJoin(
      chatPeople,
      and(eq(chatPeople.chatId, chats.id), eq(chatPeople.userId, userId), isNull(chatPeople.removedAt)),
    )
    .where(eq(chats.id, chatId));
  if (!row) return null;
  if (row.chat.userId === userId) return { chat: row.chat, role: 'owner' };
  return row.member ? { chat: row.chat, role: 'member' } : null;
}

/** The owner of a scene the user is an active member of (not its owner); null otherwise. */
export async function memberSceneOwner(db: Database, chatId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ owner: chats.userId })
    .from(chatPeople)
    .innerJoin(chats, eq(chats.id, chatPeople.chatId))
    .where(and(eq(chatPeople.chatId, chatId), eq(chatPeople.userId, userId), isNull(chatPeople.removedAt)));
  return row?.owner ?? null;
}

/** Everyone in the scene: its owner first, then its members (not removed); none for an unknown chat. */
export async function scenePersonIds(db: Database, chatId: string): Promise<string[]> {
  const [chat] = await db.select({ owner: chats.userId }).from(chats).where(eq(chats.id, chatId));
  if (!chat) return [];
  const rows = await db
    .select({ id: chatPeople.userId })
    .from(chatPeople)
    .where(and(eq(chatPeople.chatId, chatId), isNull(chatPeople.removedAt)));
  return [chat.owner, ...rows.map((r) => r.id)];
}

/** The scene's characters in the order of their faces, with their cards. */
export async function sceneCharacters(
  db: Database,
  chatId: string,
): Promise<Array<{ link: CharacterLinkRow; bot: SceneBotRow }>> {
  return db
    .select({ link: chatCharacters, bot: bots })
    .from(chatCharacters)
    .innerJoin(bots, eq(bots.id, chatCharacters.botId))
    .where(eq(chatCharacters.chatId, chatId))
    .orderBy(asc(chatCharacters.position), asc(chatCharacters.createdAt));
}

/** The faces of several group chats at once (the chats list). */
export async function sceneFaces(
  db: Database,
  chatIds: string[],
): Promise<Map<string, { bots: SceneBotRow[]; people: number }>> {
  const faces = new Map<string, { bots: SceneBotRow[]; people: number }>();
  if (chatIds.length === 0) return faces;
  const rows = await db
    .select({ chatId: chatCharacters.chatId, bot: bots })
    .from(chatCharacters)
    .innerJoin(bots, eq(bots.id, chatCharacters.botId))
    .where(inArray(chatCharacters.chatId, chatIds))
    .orderBy(asc(chatCharacters.position), asc(chatCharacters.createdAt));
  for (const row of rows) {
    const entry = faces.get(row.chatId) ?? { bots: [], people: 1 };
    entry.bots.push(row.bot);
    faces.set(row.chatId, entry);
  }
  const people = await db
    .select({ chatId: chatPeople.chatId, n: count() })
    .from(chatPeople)
    .where(and(inArray(chatPeople.chatId, chatIds), isNull(chatPeople.removedAt)))
    .groupBy(chatPeople.chatId);
  for (const row of people) {
    const entry = faces.get(row.chatId);
    if (entry) entry.people = 1 + Number(row.n);
  }
  return faces;
}

/** The scene's people: its owner first, then the active members by the time they joined. */
export async function scenePeople(db: Database, chat: ChatRow): Promise<ScenePersonRow[]> {
  const persona = {
    personaName: bots.name,
    personaDescription: bots.description,
    personaAvatarUrl: bots.avatarUrl,
  };
  const [owner] = await db
    .select({ userName: users.name, username: users.username, ...persona })
    .from(users)
    .leftJoin(bots, and(eq(bots.id, sql`${chat.personaId}::uuid`), isNull(bots.deletedAt)))
    .where(eq(users.id, chat.userId));
  const members = await db
    .select({
      userId: chatPeople.userId,
      personaId: chatPeople.personaId,
      joinedAt: chatPeople.joinedAt,
      userName: users.name,
      username: users.username,
      ...persona,
    })
    .from(chatPeople)
    .innerJoin(users, eq(users.id, chatPeople.userId))
    .leftJoin(bots, and(eq(bots.id, chatPeople.personaId), isNull(bots.deletedAt)))
    .where(and(eq(chatPeople.chatId, chat.id), isNull(chatPeople.removedAt)))
    .orderBy(asc(chatPeople.joinedAt));
  const people: ScenePersonRow[] = [
    {
      userId: chat.userId,
      role: 'owner',
      userName: owner?.userName || owner?.username || 'User',
      personaId: owner?.personaName ? chat.personaId : null,
      personaName: owner?.personaName ?? null,
      personaDescription: owner?.personaDescription ?? null,
      personaAvatarUrl: owner?.personaAvatarUrl ?? null,
      joinedAt: chat.createdAt,
    },
  ];
  for (const m of members)
    people.push({
      userId: m.userId,
      role: 'member',
      userName: m.userName || m.username || 'User',
      personaId: m.personaName ? m.personaId : null,
      personaName: m.personaName ?? null,
      personaDescription: m.personaDescription ?? null,
      personaAvatarUrl: m.personaAvatarUrl ?? null,
      joinedAt: m.joinedAt,
    });
  return people;
}

/** Creates a group chat with its characters (in the given order) in one transaction. */
export async function insertGroupChat(
  db: Database,
  values: {
    userId: string;
    botIds: string[];
    personaId: string | null;
    title: string | null;
    place: string;
    situation: string;
    turnMode: 'auto' | 'manual';
  },
): Promise<ChatRow> {
  return db.transaction(async (tx) => {
    const chat = await insertRow(tx, chats, {
      userId: values.userId,
      botId: values.botIds[0]!,
      personaId: values.personaId,
      title: values.title,
      isGroup: true,
      scenePlace: values.place,
      sceneSituation: values.situation,
      turnMode: values.turnMode,
    });
    await tx
      .insert(chatCharacters)
      .values(values.botIds.map((botId, position) => ({ chatId: chat.id, botId, position })));
    return chat;
  });
}

/**
 * Runs `work` in one transaction under the chat's row lock (two replicas changing the same
 * scene take their turn); `chat` is the locked row, undefined when the chat is gone.
 */
function underChatLock<T>(
  db: Database,
  chatId: string,
  work: (tx: Database, chat: ChatRow | undefined) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const [chat] = await tx.select().from(chats).where(eq(chats.id, chatId)).for('update');
    return work(tx, chat);
  });
}

/**
 * Adds a character to a chat (a one-to-one chat becomes a group: its character is the first
 * face); answers 'added', 'present' or 'full' — under the chat's row lock, so two replicas
 * adding at once never pass the limit.
 */
export async function addSceneCharacter(
  db: Database,
  chatId: string,
  botId: string,
  max: number,
): Promise<'added' | 'present' | 'full'> {
  return underChatLock(db, chatId, async (tx, chat) => {
    if (!chat) return 'full';
    if (!chat.isGroup) {
      await tx.update(chats).set({ isGroup: true }).where(eq(chats.id, chatId));
      await tx.insert(chatCharacters).values({ chatId, botId: chat.botId, position: 0 }).onConflictDoNothing();
    }
    const present = await tx
      .select({ botId: chatCharacters.botId, position: chatCharacters.position })
      .from(chatCharacters)
      .where(eq(chatCharacters.chatId, chatId));
    if (present.some((p) => p.botId === botId)) return 'present';
    if (present.length >= max) return 'full';
    const position = Math.max(-1, ...present.map((p) => p.position)) + 1;
    await tx.insert(chatCharacters).values({ chatId, botId, position });
    await tx.update(chats).set({ updatedAt: new Date() }).where(eq(chats.id, chatId));
    return 'added';
  });
}

/** Removes a character from a scene (never the last one); her messages stay. */
export async function removeSceneCharacter(
  db: Database,
  chatId: string,
  botId: string,
): Promise<'removed' | 'absent' | 'last'> {
  return underChatLock(db, chatId, async (tx, chat) => {
    const present = await tx
      .select({ botId: chatCharacters.botId })
      .from(chatCharacters)
      .where(eq(chatCharacters.chatId, chatId))
      .orderBy(asc(chatCharacters.position));
    if (!chat || !present.some((p) => p.botId === botId)) return 'absent';
    if (present.length <= 1) return 'last';
    await tx.delete(chatCharacters).where(and(eq(chatCharacters.chatId, chatId), eq(chatCharacters.botId, botId)));
    // The chat's own character is the first face left.
    if (chat.botId === botId) {
      const next = present.find((p) => p.botId !== botId)!;
      await tx.update(chats).set({ botId: next.botId }).where(eq(chats.id, chatId));
    }
    return 'removed';
  });
}

export async function setCharacterMuted(db: Database, chatId: string, botId: string, muted: boolean): Promise<boolean> {
  return updateAny(db, chatCharacters, and(eq(chatCharacters.chatId, chatId), eq(chatCharacters.botId, botId)), {
    muted,
  });
}

export async function updateSceneSetting(
  db: Database,
  chatId: string,
  values: { scenePlace?: string; sceneSituation?: string; turnMode?: 'auto' | 'manual'; personaId?: string | null },
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(chats).set(values).where(eq(chats.id, chatId));
}

export async function setMemberPersona(db: Database, chatId: string, userId: string, personaId: string | null) {
  await db
    .update(chatPeople)
    .set({ personaId })
    .where(and(eq(chatPeople.chatId, chatId), eq(chatPeople.userId, userId)));
}

// --- "Continue" --------------------------------------------------------------------------------

/** Sets the turns "Continue" is to take (0 ends it). */
export async function setContinueRemaining(db: Database, chatId: string, turns: number): Promise<void> {
  await db.update(chats).set({ continueRemaining: turns }).where(eq(chats.id, chatId));
}

/** Takes one turn of a running "Continue": answers the turns left after it, or null when none was left. */
export async function takeContinueTurn(db: Database, chatId: string): Promise<number | null> {
  const [row] = await db
    .update(chats)
    .set({ continueRemaining: sql`${chats.continueRemaining} - 1` })
    .where(and(eq(chats.id, chatId), gt(chats.continueRemaining, 0)))
    .returning({ left: chats.continueRemaining });
  return row ? row.left : null;
}

// --- Invites -----------------------------------------------------------------------------------

export async function insertInvite(
  db: Database,
  values: { chatId: string; code: string; expiresAt: Date; maxMembers: number },
): Promise<InviteRow> {
  return insertRow(db, chatInvites, values);
}

/** The scene's invite links, newest first, with how many joined through each. */
export async function listInvites(db: Database, chatId: string): Promise<Array<InviteRow & { joined: number }>> {
  const rows = await db
    .select({
      invite: chatInvites,
      joined:
        sql<number>`(select count(*) from ${chatPeople} where ${chatPeople.inviteId} = ${chatInvites.id})`.mapWith(
          Number,
        ),
    })
    .from(chatInvites)
    .where(eq(chatInvites.chatId, chatId))
    .orderBy(sql`${chatInvites.createdAt} desc`);
  return rows.map((r) => ({ ...r.invite, joined: r.joined }));
}

export async function revokeInvite(db: Database, chatId: string, inviteId: string): Promise<boolean> {
  return updateAny(db, chatInvites, and(eq(chatInvites.chatId, chatId), eq(chatInvites.id, inviteId)), {
    revokedAt: sql`coalesce(${chatInvites.revokedAt}, now())`,
  });
}

/** An invite by its code, with its chat. */
export async function findInvite(db: Database, code: string): Promise<{ invite: InviteRow; chat: ChatRow } | null> {
  const [row] = await db
    .select({ invite: chatInvites, chat: chats })
    .from(chatInvites)
    .innerJoin(chats, eq(chats.id, chatInvites.chatId))
    .where(eq(chatInvites.code, code));
  return row ?? null;
}

/** A person's row in a scene (active, removed or blocked), if any. */
export async function findPersonRow(db: Database, chatId: string, userId: string) {
  const [row] = await db
    .select()
    .from(chatPeople)
    .where(and(eq(chatPeople.chatId, chatId), eq(chatPeople.userId, userId)));
  return row ?? null;
}

export type JoinOutcome = 'joined' | 'already' | 'full' | 'blocked';

/**
 * Lets a person into a scene through an invite: under the chat's row lock (the member limit
 * holds across replicas), a blocked person refused, a removed one let in again.
 */
export async function joinScene(
  db: Database,
  args: { chatId: string; userId: string; personaId: string | null; inviteId: string; maxMembers: number },
): Promise<JoinOutcome> {
  return underChatLock(db, args.chatId, async (tx) => {
    const [existing] = await tx
      .select()
      .from(chatPeople)
      .where(and(eq(chatPeople.chatId, args.chatId), eq(chatPeople.userId, args.userId)));
    if (existing?.blocked) return 'blocked';
    if (existing && !existing.removedAt) return 'already';
    const [active] = await tx
      .select({ n: count() })
      .from(chatPeople)
      .where(and(eq(chatPeople.chatId, args.chatId), isNull(chatPeople.removedAt)));
    // The owner counts as one.
    if (1 + Number(active?.n ?? 0) >= args.maxMembers) return 'full';
    // What was said before one joined is not unread (docs/groups.md "Unread").
    const readThroughSeq = sql<number>`(select coalesce(max(${messages.seq}), 0) from ${messages} where ${messages.chatId} = ${args.chatId})`;
    const values = {
      personaId: args.personaId,
      inviteId: args.inviteId,
      joinedAt: new Date(),
      removedAt: null,
      readThroughSeq: readThroughSeq as unknown as number,
    };
    await tx
      .insert(chatPeople)
      .values({ chatId: args.chatId, userId: args.userId, ...values })
      .onConflictDoUpdate({ target: [chatPeople.chatId, chatPeople.userId], set: values });
    return 'joined';
  });
}

/** Takes a person out of a scene (with `block`: for good); false when they were not in it. */
export async function removePerson(db: Database, chatId: string, userId: string, block: boolean): Promise<boolean> {
  return updateAny(db, chatPeople, and(eq(chatPeople.chatId, chatId), eq(chatPeople.userId, userId)), {
    removedAt: new Date(),
    ...(block ? { blocked: true } : {}),
  });
}

/** The user: banned or not, and their 18+ record. */
export async function findJoiner(db: Database, userId: string) {
  const [row] = await db
    .select({ bannedAt: users.bannedAt, age: users.age, name: users.name, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The group chats the user joined as a member (not as owner), newest activity first. */
export async function memberChatIds(db: Database, userId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: chatPeople.chatId })
    .from(chatPeople)
    .innerJoin(chats, eq(chats.id, chatPeople.chatId))
    .where(and(eq(chatPeople.userId, userId), isNull(chatPeople.removedAt)))
    .orderBy(sql`${chats.updatedAt} desc`)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The owner's language (the turns of "Continue" started without a request). */
export async function ownerLocale(db: Database, userId: string): Promise<Locale> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
  return toLocale(row?.locale) ?? 'en';
}

/** Chats with their first character, by id (the scenes a person joined, for their chats list). */
export async function chatsWithBots(
  db: Database,
  chatIds: string[],
): Promise<Array<{ chat: ChatRow; bot: SceneBotRow }>> {
  if (chatIds.length === 0) return [];
  return db
    .select({ chat: chats, bot: bots })
    .from(chats)
    .innerJoin(bots, eq(bots.id, chats.botId))
    .where(inArray(chats.id, chatIds));
}

/** The owner of a message's chat when the user is its owner or an active member, and whether it has members; null otherwise. */
export async function messageSceneAccess(
  db: Database,
  userId: string,
  messageId: string,
): Promise<{ ownerId: string; shared: boolean } | null> {
  const [row] = await db
    .select({
      ownerId: chats.userId,
      shared: sql<boolean>`exists (select 1 from ${chatPeople} p where p.chat_id = ${chats.id} and p.removed_at is null)`,
      member: sql<boolean>`exists (select 1 from ${chatPeople} p where p.chat_id = ${chats.id} and p.user_id = ${userId}::uuid and p.removed_at is null)`,
    })
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .where(eq(messages.id, messageId));
  if (!row) return null;
  const truthy = (v: unknown) => v === true || v === 't';
  if (row.ownerId !== userId && !truthy(row.member)) return null;
  return { ownerId: row.ownerId, shared: truthy(row.shared) };
}
