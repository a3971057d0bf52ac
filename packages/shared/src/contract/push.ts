import { z } from 'zod';
import { singleLine } from '../input.js';

/**
 * Web Push and unread state (issue 31, docs/companion.md "Push and the app"). A device's
 * subscription is what `PushManager.subscribe` answers (`toJSON()`); the server keeps one row
 * per endpoint.
 */
export const PUSH_ENDPOINT_MAX = 2000;

/** `GET /api/push/config`: the VAPID public key the browser subscribes with, and the user's choices. */
export const PushConfigSchema = z
  .object({
    /** base64url, the `applicationServerKey` of `PushManager.subscribe`. */
    public_key: z.string(),
    /** Show the character's first words in a notification (false: her name only). */
    preview: z.boolean(),
    /** Also notify of a finished long reply or picture while the user is away. */
    replies: z.boolean(),
    /** Devices of this user subscribed. */
    devices: z.number().int(),
  })
  .meta({ id: 'PushConfig' });
export type PushConfig = z.infer<typeof PushConfigSchema>;

const base64url = (max: number) =>
  singleLine()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'invalid');

/** `POST /api/push/subscriptions`: a device subscribes (again: the same endpoint is replaced). */
export const PushSubscriptionBodySchema = z.object({
  endpoint: z
    .url()
    .max(PUSH_ENDPOINT_MAX)
    .refine((url) => url.startsWith('https://') || url.startsWith('http://'), 'invalid'),
  keys: z.object({ p256dh: base64url(200), auth: base64url(100) }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBodySchema>;

/** `DELETE /api/push/subscriptions`: the device unsubscribes (its endpoint). */
export const PushUnsubscribeBodySchema = z.object({ endpoint: z.string().min(1).max(PUSH_ENDPOINT_MAX) });

/** `PATCH /api/push/preferences`. */
export const PushPreferencesBodySchema = z
  .object({ preview: z.boolean().optional(), replies: z.boolean().optional() })
  .refine((v) => v.preview !== undefined || v.replies !== undefined, { message: 'empty', path: ['preview'] });
export type PushPreferencesBody = z.infer<typeof PushPreferencesBodySchema>;

/**
 * What a push carries to the service worker (JSON, encrypted by the Web Push protocol). Never
 * explicit text or pictures: `body` is the first words of a message that is not explicit, a
 * fixed text for a picture, or the fixed "new message" text when the user hides previews.
 */
export const PushPayloadSchema = z.object({
  /** The notification's title: the character's name. */
  title: z.string(),
  body: z.string(),
  /** The character's picture (a public, non-explicit URL), or null. */
  icon: z.string().nullable(),
  /** The web address the notification opens. */
  url: z.string(),
  /** One notification per chat: a newer one replaces it. */
  tag: z.string(),
  chat_id: z.string(),
  /** The user's unread messages over all chats (the app icon's badge). */
  unread: z.number().int(),
  /** The label of the notification's action that opens the notification settings (one tap to turn off). */
  off_label: z.string(),
});
export type PushPayload = z.infer<typeof PushPayloadSchema>;

/** `POST /api/chat/{id}/read`: the user read the chat up to its newest message. */
export const ChatReadSchema = z
  .object({ chat_id: z.string(), unread_total: z.number().int() })
  .meta({ id: 'ChatRead' });
export type ChatRead = z.infer<typeof ChatReadSchema>;

/** `GET /api/chats/unread`: the user's unread character messages over all chats. */
export const UnreadTotalSchema = z.object({ total: z.number().int() }).meta({ id: 'UnreadTotal' });

/**
 * `GET /api/events`: the signed-in user's events on every replica (server-sent events):
 * `read` when a chat was read on any device, `unread` when a character's message landed,
 * `data_export` when the user's archive is ready (or failed).
 */
export const UserEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['read', 'unread']),
    chat_id: z.string(),
    unread_total: z.number().int(),
  }),
  /** The user's "Download my data" archive is ready, or failed (docs/accounts.md). */
  z.object({ type: z.literal('data_export'), state: z.enum(['ready', 'failed']) }),
]);
export type UserEvent = z.infer<typeof UserEventSchema>;
