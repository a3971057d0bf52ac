import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import type { Message } from './chats.js';

/**
 * Group scenes (issue 32, docs/groups.md): a chat with several characters (2–8) and, by
 * invitation, several people. A group chat is an ordinary chat (`/api/chat/{id}/…` serves its
 * history, re-attach, stop, regenerate, swipe and report); what is new lives under
 * `/api/chat/{id}/scene` and `/api/scene-invites/{code}`.
 */

/** Characters in one scene. */
export const SCENE_CHARACTERS_MIN = 2;
export const SCENE_CHARACTERS_MAX = 8;
/** People in one scene, its owner included. */
export const SCENE_PEOPLE_MAX = 10;
/** "Continue": the most turns the characters take among themselves in one go. */
export const SCENE_CONTINUE_MAX = 10;
export const SCENE_PLACE_MAX = 200;
export const SCENE_SITUATION_MAX = 1000;
/** An invite link's life: 1 hour to 7 days; 24 hours by default. */
export const SCENE_INVITE_HOURS_MIN = 1;
export const SCENE_INVITE_HOURS_MAX = 168;
export const SCENE_INVITE_HOURS_DEFAULT = 24;
/** A typing mark lasts this long unless renewed (the client sends one at most every 3 s while typing). */
export const SCENE_TYPING_TTL_MS = 6000;

/**
 * Who picks the next speaker: `auto` — after a person's message the character named or
 * @mentioned, else the one the conversation points to (never the same twice unless addressed);
 * `manual` — a character speaks only when named/@mentioned or asked (`POST …/scene/speak`).
 */
export const TURN_MODES = ['auto', 'manual'] as const;
export type TurnMode = (typeof TURN_MODES)[number];

/**
 * Who said a message (Message.speaker): a character of the scene (bot messages of a group chat,
 * pictures included) or a person (user messages of a scene with more than one person). Absent
 * or null in a one-to-one chat, and on system messages.
 */
export const SpeakerSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('character'),
      bot_id: z.string(),
      slug: z.string(),
      name: z.string(),
      avatar_url: z.string().nullable(),
    }),
    z.object({
      kind: z.literal('person'),
      user_id: z.string(),
      /** The name the scene sees: the persona's name when they chose one, else their display name. */
      name: z.string(),
      persona_id: z.string().nullable(),
      avatar_url: z.string().nullable(),
    }),
  ])
  .meta({ id: 'Speaker' });
export type Speaker = z.infer<typeof SpeakerSchema>;

/** A character in a scene. */
export const SceneCharacterSchema = z
  .object({
    bot_id: z.string(),
    slug: z.string(),
    name: z.string(),
    avatar_url: z.string().nullable(),
    /** Muted: stays in the scene, never picked to speak (asking her by name or tapping her face still works). */
    muted: z.boolean(),
    /** Her place in the row of faces (0-based). */
    position: z.number().int(),
  })
  .meta({ id: 'SceneCharacter' });
export type SceneCharacter = z.infer<typeof SceneCharacterSchema>;

/** A person in a scene. */
export const ScenePersonSchema = z
  .object({
    user_id: z.string(),
    /** Persona name, else display name. */
    name: z.string(),
    persona_id: z.string().nullable(),
    avatar_url: z.string().nullable(),
    role: z.enum(['owner', 'member']),
    /** Has the scene open on some device right now (kept in Redis with a short TTL). */
    online: z.boolean(),
    joined_at: z.string(),
  })
  .meta({ id: 'ScenePerson' });
export type ScenePerson = z.infer<typeof ScenePersonSchema>;

/** GET /api/chat/{id}/scene: the scene of a group chat, as the person asking sees it. */
export const SceneSchema = z
  .object({
    chat_id: z.string(),
    title: z.string().nullable(),
    place: z.string(),
    situation: z.string(),
    turn_mode: z.enum(TURN_MODES),
    characters: z.array(SceneCharacterSchema),
    people: z.array(ScenePersonSchema),
    /** The person asking. */
    me: z.object({ user_id: z.string(), role: z.enum(['owner', 'member']) }),
    /** Turns "Continue" still has to take; 0 when none is running. */
    continue_remaining: z.number().int(),
  })
  .meta({ id: 'Scene' });
export type Scene = z.infer<typeof SceneSchema>;

/** What the chats list shows of a group chat (Chat.scene): the faces, and how many people. */
export const ChatSceneSummarySchema = z
  .object({
    characters: z.array(
      z.object({ bot_id: z.string(), slug: z.string(), name: z.string(), avatar_url: z.string().nullable() }),
    ),
    people: z.number().int(),
    role: z.enum(['owner', 'member']),
  })
  .meta({ id: 'ChatSceneSummary' });
export type ChatSceneSummary = z.infer<typeof ChatSceneSummarySchema>;

const idField = () => singleLine().min(1).max(100);
const placeField = () => singleLine().trim().max(SCENE_PLACE_MAX, 'too_long');
const situationField = () => freeText().trim().max(SCENE_SITUATION_MAX, 'too_long');

/** POST /api/chat/group: a new group chat with 2–8 characters (ids or slugs), the scene setting and the user's persona. */
export const GroupCreateBodySchema = z.object({
  bot_ids: z
    .array(idField())
    .min(SCENE_CHARACTERS_MIN, 'scene_characters_min')
    .max(SCENE_CHARACTERS_MAX, 'scene_characters_max'),
  place: placeField().optional(),
  situation: situationField().optional(),
  persona_id: idField().nullable().optional(),
  title: singleLine().trim().min(1, 'required').max(80, 'chat_title_max').optional(),
  turn_mode: z.enum(TURN_MODES).optional(),
});
export type GroupCreateBody = z.infer<typeof GroupCreateBodySchema>;

/** PATCH /api/chat/{id}/scene (owner): the setting and the turn mode. */
export const SceneUpdateBodySchema = z.object({
  place: placeField().optional(),
  situation: situationField().optional(),
  turn_mode: z.enum(TURN_MODES).optional(),
});
export type SceneUpdateBody = z.infer<typeof SceneUpdateBodySchema>;

/** POST /api/chat/{id}/scene/characters (owner): add a character (a one-to-one chat becomes a group; its history stays). */
export const SceneAddCharacterBodySchema = z.object({ bot_id: idField() });
export const SceneCharacterParamsSchema = z.object({ id: idField(), bot_id: idField() });
/** PATCH /api/chat/{id}/scene/characters/{bot_id}: mute or unmute her (any person of the scene). */
export const SceneCharacterUpdateBodySchema = z.object({ muted: z.boolean() });

/** POST /api/chat/{id}/scene/speak: make this character speak now (manual turn); the reply streams back. */
export const SceneSpeakBodySchema = z.object({ bot_id: idField() });
/** POST /api/chat/{id}/scene/continue: the characters talk among themselves for up to `turns` turns. */
export const SceneContinueBodySchema = z.object({
  turns: z.number().int().min(1).max(SCENE_CONTINUE_MAX).optional(),
});
export const SceneContinueSchema = z
  .object({ continue_remaining: z.number().int(), message_id: z.string().nullable() })
  .meta({ id: 'SceneContinue' });
export type SceneContinue = z.infer<typeof SceneContinueSchema>;

/** An invite link of a scene (owner's view). */
export const SceneInviteSchema = z
  .object({
    id: z.string(),
    /** The secret of the link: `/scene/join/{code}` on the web app. */
    code: z.string(),
    url: z.string(),
    expires_at: z.string(),
    /** The most people the scene may hold through this link, its owner included. */
    max_members: z.number().int(),
    /** People who joined through it. */
    joined: z.number().int(),
    revoked: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'SceneInvite' });
export type SceneInvite = z.infer<typeof SceneInviteSchema>;
export const SceneInviteListSchema = z.object({ results: z.array(SceneInviteSchema) }).meta({ id: 'SceneInviteList' });
export const SceneInviteCreateBodySchema = z.object({
  expires_in_hours: z.number().int().min(SCENE_INVITE_HOURS_MIN).max(SCENE_INVITE_HOURS_MAX).optional(),
  max_members: z.number().int().min(2).max(SCENE_PEOPLE_MAX).optional(),
});
export type SceneInviteCreateBody = z.infer<typeof SceneInviteCreateBodySchema>;
export const SceneInviteParamsSchema = z.object({ id: idField(), invite_id: idField() });

/** GET /api/scene-invites/{code}: what the invited person sees before joining. */
export const SceneInviteCodeParamsSchema = z.object({ code: singleLine().min(10).max(100) });
export const SceneInvitePreviewSchema = z
  .object({
    chat_id: z.string(),
    title: z.string().nullable(),
    place: z.string(),
    owner_name: z.string(),
    characters: ChatSceneSummarySchema.shape.characters,
    people: z.number().int(),
    max_members: z.number().int(),
    expires_at: z.string(),
    /** The person asking is in the scene already (joining again just opens it). */
    already_member: z.boolean(),
  })
  .meta({ id: 'SceneInvitePreview' });
export type SceneInvitePreview = z.infer<typeof SceneInvitePreviewSchema>;

/** POST /api/scene-invites/{code}/join: join with a persona of one's own, after the 18+ confirmation. */
export const SceneJoinBodySchema = z.object({
  persona_id: idField().nullable().optional(),
  adult_confirmed: z.literal(true, { message: 'age_confirm_required' }),
});
export type SceneJoinBody = z.infer<typeof SceneJoinBodySchema>;

/** POST /api/chat/{id}/scene/typing: no body, 204. PATCH /api/chat/{id}/scene/me: the persona the scene sees me as. */
export const SceneMeBodySchema = z.object({ persona_id: idField().nullable() });

/** DELETE /api/chat/{id}/scene/people/{user_id}?block=1: the owner removes someone (block: never again through any link); one's own id: leave. */
export const ScenePersonParamsSchema = z.object({ id: idField(), user_id: idField() });
export const ScenePersonRemoveQuerySchema = z.object({ block: z.enum(['0', '1']).optional() });

/**
 * GET /api/chat/{id}/scene/events (server-sent events; `event:` is `type`, `data:` the JSON), from
 * every replica:
 * - `message`: a Message saved in the chat (one's own too: replace by id) — a character's
 *   reply first in state `streaming` (follow its text with `GET /api/chat/{id}/stream/{message_id}`)
 *   and again when final; private messages (a crisis reply, a joiner's AI disclosure) reach only
 *   their person. Replace the client's copy by id, as with the send stream;
 * - `typing`: a person is typing (lasts `SCENE_TYPING_TTL_MS` unless renewed);
 * - `presence`: the people who have the scene open now (user ids);
 * - `scene`: the scene changed (people, characters, mutes, setting, continue): read it again;
 * - `removed`: you were removed from the scene (or left on another device); the stream ends.
 */
export type SceneEvent =
  | { type: 'message'; message: Message }
  | { type: 'typing'; user_id: string; name: string }
  | { type: 'presence'; online: string[] }
  | { type: 'scene' }
  | { type: 'removed' };
export type SceneEventType = SceneEvent['type'];
