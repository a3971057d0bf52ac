import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { MessageKind } from '../constants.js';
import { BotSchema } from './bots.js';

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
    /** The user's name for the chat (PATCH `title`); null: shown by the character's name. */
    title: z.string().nullable(),
  })
  .meta({ id: 'Chat' });
export type Chat = z.infer<typeof ChatSchema>;

export const ChatListSchema = z.array(ChatSchema).meta({ id: 'ChatList' });

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

export const HistoryQuerySchema = z.object({
  c: singleLine().max(300).optional(),
  size: z.coerce.number().int().min(1).max(100).optional(),
});
export const HistorySchema = z
  .object({ results: z.array(MessageSchema), next_param: z.string().nullable() })
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

/** PATCH /api/chat/{id}: the chat's persona, model and title. */
export const ChatUpdateBodySchema = z.object({
  persona_id: idField().nullable().optional(),
  model_id: idField().nullable().optional(),
  title: chatTitleField().nullable().optional(),
});

/** GET/PUT /api/chat/{id}/memory: the summary of older messages the character remembers. */
export const CHAT_MEMORY_MAX = 8000;
export const ChatMemorySchema = z
  .object({ memory: z.string(), updated_at: z.string().nullable() })
  .meta({ id: 'ChatMemory' });
export type ChatMemory = z.infer<typeof ChatMemorySchema>;
export const ChatMemoryBodySchema = z.object({ memory: freeText().max(CHAT_MEMORY_MAX, 'too_long') });

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
