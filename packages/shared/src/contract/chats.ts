import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { MessageKind } from '../constants.js';
import { BotSchema } from './bots.js';
import { MessageMemoriesSchema } from './memories.js';
import { ChatSceneSummarySchema, SpeakerSchema } from './groups.js';

/**
 * Chats and messages (API.md "Chats and messages"). The schemas are the contract between
 * the server, the web client and third-party clients; OpenAPI is generated from them.
 */

export const MESSAGE_ROLES = ['user', 'bot', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
export const MESSAGE_STATES = ['streaming', 'done', 'stopped', 'failed'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];
export const MESSAGE_KINDS = [
  MessageKind.Text,
  MessageKind.Image,
  MessageKind.BlurImage,
  MessageKind.Processed,
] as const;

/**
 * What a platform (system) message is, so the client can style and translate it:
 * `ai_disclosure` (the character is an AI, PRODUCT.md §6), `crisis` (the fixed crisis
 * reply), `refusal` (the minors guard refused a message); null for ordinary messages.
 */
export const SYSTEM_NOTICES = ['ai_disclosure', 'crisis', 'refusal'] as const;
export type SystemNotice = (typeof SYSTEM_NOTICES)[number];

export const MessageSchema = z
  .object({
    id: z.string(),
    chat_id: z.string(),
    client_id: z.string().nullable(),
    role: z.enum(MESSAGE_ROLES),
    kind: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(9999)]),
    text: z.string(),
    img_url: z.string().nullable(),
    has_audio: z.boolean(),
    state: z.enum(MESSAGE_STATES),
    created_at: z.string(),
    /** A bot reply: the user message it answers (alternatives share it); else null. */
    reply_to: z.string().nullable(),
    /** A bot reply's position among its alternatives (0-based) and how many there are. */
    alt_index: z.number().int(),
    alt_count: z.number().int(),
    /** Why a message failed (`provider_error`, `timeout`, `model_unavailable`, …); else null. */
    error_code: z.string().nullable(),
    notice: z.enum(SYSTEM_NOTICES).nullable(),
    /** Said in a voice call (docs/calls.md): the user's words as recognised, the character's reply as spoken. */
    spoken: z.boolean(),
    /** A bot reply's memories: those in its prompt and those it drew on (contract/memories.ts); absent when none. */
    memories: MessageMemoriesSchema.optional(),
    /** When the user last edited it (issue 29: edited messages are marked); null: never. */
    edited_at: z.string().nullable(),
    /** She wrote first (docs/companion.md): a proactive message, not an answer; shown with a small mark. */
    proactive: z.boolean(),
    /**
     * Group scenes (docs/groups.md): who said it — the character of a bot message in a group
     * chat (her words, or a picture she sent), the person of a user message in a scene of
     * several people. Absent or null in a
     * one-to-one chat and on system messages.
     */
    speaker: SpeakerSchema.nullable().optional(),
    /** Seen only by the person it is for (a crisis reply in a scene, a joiner's AI disclosure); absent: everyone's. */
    private: z.boolean().optional(),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;

export const ChatSchema = z
  .object({
    id: z.string(),
    bot: BotSchema,
    last_message: MessageSchema.nullable(),
    updated_at: z.string(),
    /** The persona the character sees the user as (a bot of kind persona), or null. */
    persona_id: z.string().nullable(),
    /** The catalogue model of this chat; null for the default. */
    model_id: z.string().nullable(),
    /** Character messages the user has not read yet (on any device). */
    unread: z.number().int(),
    /** The user's name for the chat (PATCH `title`); null: shown by the character's name. */
    title: z.string().nullable(),
    /** False: "don't remember this chat" — nothing of it becomes a long-term memory (PATCH `remember`). */
    remember: z.boolean(),
    /** A branch (docs/chat.md "Branches"): the chat it was branched from, its tree's first chat, the message it starts after; null otherwise. */
    parent_chat_id: z.string().nullable(),
    root_chat_id: z.string().nullable(),
    fork_message_id: z.string().nullable(),
    /** A group chat (docs/groups.md): its characters' faces and how many people; absent or null for a one-to-one chat. `bot` is then the scene's first character. */
    scene: ChatSceneSummarySchema.nullable().optional(),
  })
  .meta({ id: 'Chat' });
export type Chat = z.infer<typeof ChatSchema>;

export const ChatListSchema = z.array(ChatSchema).meta({ id: 'ChatList' });

/** POST /api/chat/import (docs/chat.md "Import"): the new chat, the messages written and the system lines left out. */
export const ChatImportResultSchema = z
  .object({ chat: ChatSchema, imported: z.number().int(), skipped: z.number().int() })
  .meta({ id: 'ChatImportResult' });
export type ChatImportResult = z.infer<typeof ChatImportResultSchema>;

/** GET /api/chats/available: `q` finds chats by character name, title or message text; `bot_id` keeps one character's chats. */
export const CHAT_SEARCH_MAX = 100;
export const ChatListQuerySchema = z.object({
  q: singleLine().trim().max(CHAT_SEARCH_MAX, 'too_long').optional(),
  bot_id: singleLine().min(1).max(100).optional(),
});
export type ChatListQuery = z.infer<typeof ChatListQuerySchema>;

/** An id or slug in a path or body: one line, bounded (unknown ones are 404, never 500). */
const idField = () => singleLine().min(1).max(100);

export const ChatCreateBodySchema = z.object({ botID: idField() });
export const ChatGetOrCreateBodySchema = z
  .object({ botID: idField().optional(), slug: idField().optional() })
  .refine((v) => Boolean(v.botID ?? v.slug), { message: 'botID or slug is required', path: ['botID'] });

export const ChatIdParamsSchema = z.object({ id: idField() });
export const ChatMessageParamsSchema = z.object({ id: idField(), message_id: idField() });

/**
 * Which page of the history (docs/chat.md "Long chats"): by default the newest; `c` the page
 * older than a cursor, `a` the page newer than one, `from=first` the chat's first messages,
 * `at` the messages around a moment (an ISO date or date-time). One of them at most.
 */
export const HistoryQuerySchema = z
  .object({
    c: singleLine().max(300).optional(),
    a: singleLine().max(300).optional(),
    from: z.enum(['first']).optional(),
    at: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
    size: z.coerce.number().int().min(1).max(100).optional(),
  })
  .refine((q) => [q.c, q.a, q.from, q.at].filter((v) => v !== undefined).length <= 1, {
    message: 'one of c, a, from, at',
    path: ['c'],
  });
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;
export const HistorySchema = z
  .object({
    /** Newest first. */
    results: z.array(MessageSchema),
    /**
     * The cursor of the page older than this one (`c`); null at the chat's first message, and
     * for a page read going forward (`a`), whose older side the client already has.
     */
    next_param: z.string().nullable(),
    /**
     * The cursor of the page newer than this one (`a`); null when this page reaches the newest
     * message, and for the default page and a page read going back (`c`).
     */
    prev_param: z.string().nullable().optional(),
    /** With `at`: the first message at or after that moment (the one to show), if any. */
    anchor_id: z.string().nullable().optional(),
  })
  .meta({ id: 'History' });
export type History = z.infer<typeof HistorySchema>;

export const MESSAGE_TEXT_MAX = 4000;
export const SendMessageBodySchema = z.object({
  client_id: z.uuid(),
  text: freeText().trim().min(1, 'required').max(MESSAGE_TEXT_MAX, 'too_long'),
});
export type SendMessageBody = z.infer<typeof SendMessageBodySchema>;

/** A chat's title: trimmed, 1..80 characters (null clears it). */
export const CHAT_TITLE_MAX = 80;
export const chatTitleField = () => singleLine().trim().min(1, 'required').max(CHAT_TITLE_MAX, 'chat_title_max');

/** PATCH /api/chat/{id}: the chat's persona, model, title and whether its messages become memories. */
export const ChatUpdateBodySchema = z.object({
  persona_id: idField().nullable().optional(),
  model_id: idField().nullable().optional(),
  title: chatTitleField().nullable().optional(),
  remember: z.boolean().optional(),
});

/** GET/PUT /api/chat/{id}/memory: the summary of older messages the character remembers. */
export const CHAT_MEMORY_MAX = 8000;
export const ChatMemorySchema = z
  .object({ memory: z.string(), updated_at: z.string().nullable() })
  .meta({ id: 'ChatMemory' });
export type ChatMemory = z.infer<typeof ChatMemorySchema>;
export const ChatMemoryBodySchema = z.object({ memory: freeText().max(CHAT_MEMORY_MAX, 'too_long') });

/**
 * GET/PUT /api/chat/{id}/author-note (docs/chat.md "Author's note"): the user's steer for the
 * story, put into the prompt `depth` messages before the newest (0: after it).
 */
export const AUTHOR_NOTE_MAX = 2000;
export const AUTHOR_NOTE_DEPTH_MAX = 100;
export const AUTHOR_NOTE_DEPTH_DEFAULT = 4;
export const AuthorNoteSchema = z.object({ text: z.string(), depth: z.number().int() }).meta({ id: 'AuthorNote' });
export type AuthorNote = z.infer<typeof AuthorNoteSchema>;
export const AuthorNoteBodySchema = z.object({
  text: freeText().max(AUTHOR_NOTE_MAX, 'too_long'),
  depth: z.number().int().min(0).max(AUTHOR_NOTE_DEPTH_MAX),
});

/** POST /api/chat/{id}/messages/{message_id}/select: show that alternative. */
export const SelectAlternativeBodySchema = z.object({ index: z.number().int().min(0) });

/** POST /api/chat/{id}/messages/{message_id}/report. */
export const REPORT_REASONS = ['sexual_minors', 'harassment', 'self_harm', 'illegal', 'other'] as const;
export const ReportMessageBodySchema = z.object({
  reason: z.enum(REPORT_REASONS),
  comment: freeText().max(1000, 'text_max').optional(),
});

/** The model catalogue (GET /api/models). */
export const ModelInfoSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    provider: z.enum(['openai', 'local']),
    context_size: z.number().int(),
    premium: z.boolean(),
    /** False when the user may not pick it (premium model, free user). */
    available: z.boolean(),
  })
  .meta({ id: 'ModelInfo' });
export type ModelInfo = z.infer<typeof ModelInfoSchema>;
export const ModelListSchema = z
  .object({ results: z.array(ModelInfoSchema), default_id: z.string() })
  .meta({ id: 'ModelList' });

/**
 * Server-sent events of a message stream: `event:` name → `data:` JSON.
 * - `user_message`: the saved user message (first event of a send);
 * - `system_message`: a platform notice saved in the chat (AI disclosure, crisis reply, refusal);
 * - `bot_message`: a bot reply — first with state `streaming` (so the client knows its id and
 *   alternative position), again with its final state (`done`, `stopped` or `failed`);
 * - `delta`: more text of a streaming bot reply; `image`: a picture message;
 * - `status`: `{message_id, status}` — `warming_up`: the model is still loading; the reply
 *   waits for it (the typing indicator says so);
 * - `error`: `{code, detail, message_id}` — the stream ends after it.
 * Every event that carries a Message replaces the client's copy of that message by id.
 */
export const StreamDeltaSchema = z.object({ message_id: z.string(), text: z.string() });
export const StreamErrorSchema = z.object({ code: z.string(), detail: z.string(), message_id: z.string().nullable() });
export type StreamEvent =
  | { event: 'user_message'; data: Message }
  | { event: 'system_message'; data: Message }
  | { event: 'delta'; data: z.infer<typeof StreamDeltaSchema> }
  | { event: 'image'; data: Message }
  | { event: 'bot_message'; data: Message }
  | { event: 'status'; data: { message_id: string; status: 'warming_up' } }
  | { event: 'error'; data: z.infer<typeof StreamErrorSchema> };
export type StreamEventName = StreamEvent['event'];

/** PATCH /api/chat/{id}/messages/{message_id}: the message's new text (issue 29). */
export const EditMessageBodySchema = z.object({
  text: freeText().trim().min(1, 'required').max(MESSAGE_TEXT_MAX, 'too_long'),
});
export type EditMessageBody = z.infer<typeof EditMessageBodySchema>;

/** DELETE /api/chat/{id}/messages/{message_id}?from=1: that message only, or it and everything after it. */
export const DeleteMessageQuerySchema = z.object({ from: z.enum(['0', '1']).optional() });
/** The ids that left the chat's history. */
export const DeletedMessagesSchema = z.object({ removed: z.array(z.string()) }).meta({ id: 'DeletedMessages' });
export type DeletedMessages = z.infer<typeof DeletedMessagesSchema>;

/** GET /api/chat/{id}/branches: the tree of the chat (its root and every branch). */
export const ChatBranchSchema = z
  .object({
    id: z.string(),
    parent_chat_id: z.string().nullable(),
    fork_message_id: z.string().nullable(),
    title: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    /** The user and character messages it shows. */
    message_count: z.number().int(),
  })
  .meta({ id: 'ChatBranch' });
export type ChatBranch = z.infer<typeof ChatBranchSchema>;
export const ChatTreeSchema = z
  .object({ root_id: z.string(), chats: z.array(ChatBranchSchema) })
  .meta({ id: 'ChatTree' });
export type ChatTree = z.infer<typeof ChatTreeSchema>;

/** GET /api/chat/{id}/search?q=: full-text search in one chat. */
export const CHAT_MESSAGE_SEARCH_MAX = 100;
export const ChatSearchQuerySchema = z.object({
  q: singleLine().trim().min(1, 'required').max(CHAT_MESSAGE_SEARCH_MAX, 'too_long'),
});
export const ChatSearchHitSchema = z
  .object({
    message: MessageSchema,
    /** The found words in `message.text`: [start, end) in UTF-16 code units. */
    highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  })
  .meta({ id: 'ChatSearchHit' });
export type ChatSearchHit = z.infer<typeof ChatSearchHitSchema>;
export const ChatSearchSchema = z.object({ results: z.array(ChatSearchHitSchema) }).meta({ id: 'ChatSearch' });
export type ChatSearch = z.infer<typeof ChatSearchSchema>;

/** GET /api/chat/{id}/around/{message_id}: a page of the history around a message. */
export const AroundQuerySchema = z.object({ size: z.coerce.number().int().min(2).max(100).optional() });
export const AroundSchema = z
  .object({
    /** Newest first, the message among them. */
    results: z.array(MessageSchema),
    /** The cursor of the older messages (`GET /api/chat/history/{id}?c=`); null at the start. */
    next_param: z.string().nullable(),
    /** Whether newer messages follow the page. */
    has_newer: z.boolean(),
  })
  .meta({ id: 'Around' });
export type Around = z.infer<typeof AroundSchema>;

/** POST /api/chat/{id}/suggestions: three short replies the user might send (only when they turned them on). */
export const SuggestionsSchema = z.object({ suggestions: z.array(z.string()) }).meta({ id: 'Suggestions' });
export type Suggestions = z.infer<typeof SuggestionsSchema>;

/**
 * POST /api/chat/{id}/impersonate: the user's next line written by the model, streamed
 * (`text/event-stream`): `delta` {text}, then `done` {text} or `error` {code, detail}. Nothing
 * is saved or sent: the client puts the text into its input box.
 */
export type ImpersonateEvent =
  | { event: 'delta'; data: { text: string } }
  | { event: 'done'; data: { text: string } }
  | { event: 'error'; data: { code: string; detail: string } };
