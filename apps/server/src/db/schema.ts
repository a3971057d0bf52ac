import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  boolean,
  check,
  real,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { float4Vector } from './float4-vector.js';

/** Who said a message of a group scene (messages.speaker); the avatar as its media key. */
export type StoredSpeaker =
  | { kind: 'character'; bot_id: string; slug: string; name: string; avatar: string | null }
  | { kind: 'person'; user_id: string; name: string; persona_id: string | null; avatar: string | null };

/** A row's id: a random UUID made by the database. */
const primaryId = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
/** The user a row belongs to; the row goes with the account. */
const ownerUserId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Accounts. The accounts module owns them (sign-up, tokens, profile); other modules only
 * reference `users.id`.
 */
export const users = pgTable(
  'users',
  {
    id: primaryId(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    age: smallint('age'),
    locale: text('locale').notNull().default('en'),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    isEmailConfirmed: boolean('is_email_confirmed').notNull().default(false),
    numTokens: integer('num_tokens').notNull().default(0),
    /** Onboarding: what the user likes (tag ids from INTEREST_TAGS). */
    interests: text('interests')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The creator hid their page (`/u/{id}`, their public characters): it answers 404 (issue 30). */
    creatorPageHidden: boolean('creator_page_hidden').notNull().default(false),
    /** False after the user unsubscribes: marketing mail stops, account mail still goes out. */
    marketingEmails: boolean('marketing_emails').notNull().default(true),
    /** When the last verification mail went out; null when none was sent. */
    verificationSentAt: timestamp('verification_sent_at', { withTimezone: true }),
    /** Set while the account is banned: its sessions end and every authenticated call answers 401. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /** Why the account was banned, shown to its owner at log-in. */
    banReason: text('ban_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(sql`lower(${t.email})`),
    check('users_num_tokens_nonnegative', sql`${t.numTokens} >= 0`),
  ],
);

/**
 * Refresh tokens (30 days), stored as SHA-256 hashes. Each use rotates the token within its
 * family; presenting a used token again revokes the whole family (token theft).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: primaryId(),
    userId: ownerUserId(),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Single-use codes sent by e-mail (verification, password reset), stored hashed. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: primaryId(),
    userId: ownerUserId(),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_tokens_hash_idx').on(t.tokenHash), index('email_tokens_user_idx').on(t.userId, t.purpose)],
);

/** The local outbox: mail kept in the database when no SMTP server is configured (/dev/mailbox). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt), index('mail_outbox_user_idx').on(t.userId)],
);

/** Issue reports sent from Settings (POST /api/support). */
export const supportReports = pgTable(
  'support_reports',
  {
    id: primaryId(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    /** The administrator's answer, e-mailed to the reporter (admin console). */
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** The administrator who answered or closed it. */
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_reports_created_idx').on(t.createdAt),
    index('support_reports_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'open'`),
  ],
);

/** First-party analytics: what the web client batches to POST /api/analytics/events. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    props: jsonb('props').$type<Record<string, string | number | boolean | null>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    deviceId: text('device_id').notNull(),
    userId: text('user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('analytics_events_name_time_idx').on(t.name, t.occurredAt),
    index('analytics_events_device_idx').on(t.deviceId),
    index('analytics_events_user_idx').on(t.userId),
  ],
);

/** Blog posts, written in Markdown (PRODUCT.md §8); the id is the URL slug. */
export const blogPosts = pgTable(
  'blog_posts',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    body: text('body').notNull(),
    coverUrl: text('cover_url'),
    /** Media key of a cover uploaded in the admin console (the URL is derived from it). */
    coverKey: text('cover_key'),
    /** SEO: the page title and description when they differ from the post's title and summary. */
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    /** The post in the other languages, written by the seed from content/blog/<locale>/. */
    translations: jsonb('translations').$type<BlogTranslations>().notNull().default({}),
    isPublished: boolean('is_published').notNull().default(true),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('blog_posts_published_idx').on(t.publishedAt.desc(), t.id.desc())],
);

/** SQL of "shown in the catalogue" (public, approved characters); see bots_listed_* indexes. */
export const LISTED = `"bots"."kind" = 'character' and "bots"."visibility" = 'public' and "bots"."review_state" = 'approved'`;
/** SQL of "has this style tag" for the catalogue's style filters. */
export const STYLE = (tag: 'anime' | 'realistic') => `"bots"."tags" @> '{${tag}}'::text[]`;

/**
 * An official text in another language than English (docs/characters.md "Localization"): what
 * the seed wrote for `ch`, `es`, `de` and `ru`; a missing field falls back to the row's own
 * (English) text.
 */
export interface BotTranslation {
  description?: string;
  greeting?: string;
  scenario?: string;
  /** The descriptive tags: what she does and what she is like. */
  occupation?: string[];
  personality?: string[];
}
export type BotTranslations = Partial<Record<'ch' | 'es' | 'de' | 'ru', BotTranslation>>;

/** A blog post in another language (title, summary, body); missing fields fall back to English. */
export type BlogTranslations = Partial<
  Record<'ch' | 'es' | 'de' | 'ru', { title?: string; summary?: string; body?: string }>
>;

/** A Character Card lorebook (V2 `character_book`), kept as given so it survives a round trip. */
export type CharacterBook = Record<string, unknown>;

/**
 * Characters and personas, with the Character Card V2/V3 fields (PRODUCT.md §5). Official
 * characters have no author; a custom one belongs to its author and, when public, shows in
 * the catalogue once its review state is `approved`.
 */
export const bots = pgTable(
  'bots',
  {
    id: primaryId(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    age: smallint('age').notNull(),
    kind: text('kind', { enum: ['character', 'persona'] })
      .notNull()
      .default('character'),
    description: text('description').notNull().default(''),
    greeting: text('greeting').notNull().default(''),
    avatarUrl: text('avatar_url'),
    /** Media key of the avatar (the URL is derived from it). */
    avatarKey: text('avatar_key'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isOfficial: boolean('is_official').notNull().default(false),
    visibility: text('visibility', { enum: ['public', 'private'] })
      .notNull()
      .default('private'),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'cascade' }),
    reviewState: text('review_state', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    /** Why an administrator rejected it (shown to the author and e-mailed). */
    reviewReason: text('review_reason'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    /** The nudity classifier judged the avatar explicit: blurred in public listings until reviewed. */
    avatarExplicit: boolean('avatar_explicit').notNull().default(false),
    /** An administrator reviewed the explicit pictures and allowed them unblurred in listings. */
    picturesReviewedAt: timestamp('pictures_reviewed_at', { withTimezone: true }),
    /** TTS voice id (espeak-ng voice, or a provider's voice name). */
    voice: text('voice').notNull().default('en-us+f3'),
    occupation: text('occupation')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    personality: text('personality')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // Character Card fields
    personalityText: text('personality_text').notNull().default(''),
    scenario: text('scenario').notNull().default(''),
    exampleMessages: text('example_messages').notNull().default(''),
    systemPrompt: text('system_prompt').notNull().default(''),
    postHistoryInstructions: text('post_history_instructions').notNull().default(''),
    alternateGreetings: text('alternate_greetings')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    characterBook: jsonb('character_book').$type<CharacterBook | null>(),
    creatorNotes: text('creator_notes').notNull().default(''),
    creator: text('creator').notNull().default(''),
    characterVersion: text('character_version').notNull().default(''),
    /** Unknown card extension fields, kept verbatim. */
    extensions: jsonb('extensions').$type<Record<string, unknown>>().notNull().default({}),
    /** V3 `data` fields this server does not model (assets, nickname, …), kept verbatim. */
    cardExtra: jsonb('card_extra').$type<Record<string, unknown>>().notNull().default({}),
    /** Official characters' texts in the other languages (the seed writes them on every run). */
    translations: jsonb('translations').$type<BotTranslations>().notNull().default({}),
    // Not modelled here (hand-written in migration 0015, never selected): `search_vector`, a
    // stored generated tsvector of the name, tags, description and greeting in every language,
    // and its partial GIN index `bots_search_idx` (docs/characters.md "Search").
    sortOrder: integer('sort_order').notNull().default(0),
    /**
     * When its author deleted it (issue 30): kept, private, for the chats other people have with
     * it (their history stays); gone from the author's lists, the catalogue and its page.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bots_slug_idx').on(t.slug),
    // The catalogue's keyset order, newest first, one partial index per filter so that
    // even a rare filter reads only the rows of its page. Scanned backwards, ascending
    // indexes match `order by created_at desc, id desc`. The predicates are repeated
    // verbatim in bots.repository.ts (listCatalogue) so the planner can use them.
    index('bots_listed_idx').on(t.createdAt, t.id).where(sql.raw(LISTED)),
    index('bots_listed_source_idx').on(t.isOfficial, t.createdAt, t.id).where(sql.raw(LISTED)),
    index('bots_listed_anime_idx')
      .on(t.createdAt, t.id)
      .where(sql.raw(`${LISTED} and ${STYLE('anime')}`)),
    index('bots_listed_anime_source_idx')
      .on(t.isOfficial, t.createdAt, t.id)
      .where(sql.raw(`${LISTED} and ${STYLE('anime')}`)),
    index('bots_listed_realistic_idx')
      .on(t.createdAt, t.id)
      .where(sql.raw(`${LISTED} and ${STYLE('realistic')}`)),
    index('bots_listed_realistic_source_idx')
      .on(t.isOfficial, t.createdAt, t.id)
      .where(sql.raw(`${LISTED} and ${STYLE('realistic')}`)),
    index('bots_author_idx').on(t.authorId, t.createdAt, t.id),
    check('bots_age_adult', sql`${t.age} >= 18`),
  ],
);

/**
 * Every word of the listed characters' names, tags, descriptions and greetings, in every
 * language (filled by a trigger, migration 0015): the dictionary a mistyped search word is
 * corrected from through trigram similarity (docs/characters.md "Search"). A word is never
 * removed; one no character uses any more only corrects to nothing found.
 */
export const botSearchWords = pgTable('bot_search_words', {
  word: text('word').primaryKey(),
});

/** A character's gallery: pictures in media storage, in order. */
export const botPictures = pgTable(
  'bot_pictures',
  {
    id: primaryId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    mediaKey: text('media_key').notNull(),
    position: smallint('position').notNull().default(0),
    /** The nudity classifier judged it explicit (see `bots.avatar_explicit`). */
    explicit: boolean('explicit').notNull().default(false),
    /**
     * `public`: shown on the character's page to anyone who may see the character. `private`:
     * only ever sent in chat (blurred for free users until unblurred), never on a page, in a
     * list or in a link preview, and served only with a signed URL, to its author or to an
     * administrator (docs/pictures.md, "Public and private pictures").
     */
    visibility: text('visibility', { enum: ['public', 'private'] })
      .notNull()
      .default('public'),
    createdAt: createdAt(),
  },
  (t) => [index('bot_pictures_bot_idx').on(t.botId, t.position)],
);

/**
 * Which of a character's private pictures each user was sent (the gallery never sends one
 * twice to a user while unseen ones remain; docs/pictures.md).
 */
export const botPictureSends = pgTable(
  'bot_picture_sends',
  {
    userId: ownerUserId(),
    pictureId: uuid('picture_id')
      .notNull()
      .references(() => botPictures.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.pictureId] }),
    index('bot_picture_sends_user_bot_idx').on(t.userId, t.botId),
  ],
);

// ---------------------------------------------------------------------------------------
// Billing (issue 6): the desires ledger, daily claims, subscriptions, payments, webhooks.
// `users.num_tokens` is the balance; it always equals the sum of the user's ledger rows.
// ---------------------------------------------------------------------------------------

/** Every change of a balance, written in the same transaction as `users.num_tokens`. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownerUserId(),
    /** Positive for credits, negative for debits; never zero. */
    amount: integer('amount').notNull(),
    reason: text('reason', {
      enum: ['daily_claim', 'premium_activation', 'premium_daily', 'purchase', 'spend', 'adjustment'],
    }).notNull(),
    /** What the change refers to: a payment id, a message id, … */
    reference: text('reference'),
    /** The same key never moves a balance twice. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_idempotency_idx').on(t.idempotencyKey),
    index('ledger_entries_user_idx').on(t.userId, t.createdAt),
    check('ledger_entries_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/** When each user last claimed the daily desires (one row per user). */
export const desireClaims = pgTable('desire_claims', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastClaimedAt: timestamp('last_claimed_at', { withTimezone: true }).notNull(),
});

/** Premium subscriptions; `has_subscription` is derived from them. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: primaryId(),
    userId: ownerUserId(),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'nowpayments'] }).notNull(),
    /** The provider's subscription id (ours for one-off crypto and sandbox periods). */
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    plan: text('plan', { enum: ['monthly', 'annual'] }).notNull(),
    status: text('status', { enum: ['trialing', 'active', 'past_due', 'cancelled'] }).notNull(),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Time of the provider event that set this state: older events never overwrite it. */
    stateAt: timestamp('state_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_ref_idx').on(t.provider, t.providerSubscriptionId),
    index('subscriptions_user_idx').on(t.userId),
  ],
);

/** Checkouts and their outcome; amounts in integer cents plus an ISO currency. */
export const payments = pgTable(
  'payments',
  {
    id: primaryId(),
    /** Kept (anonymised) when the account is deleted. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'nowpayments'] }).notNull(),
    providerRef: text('provider_ref'),
    plan: text('plan', { enum: ['monthly', 'annual', 'pack_350', 'pack_1000', 'pack_3000'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed'] })
      .notNull()
      .default('pending'),
    /** Set when a paid payment must be refunded by the operator (e.g. `duplicate_subscription`). */
    refundReason: text('refund_reason'),
    /** Days of free trial this checkout starts (0: charged at once; `amount_cents` is then 0 for a trial). */
    trialDays: integer('trial_days').notNull().default(0),
    /** Money given back (provider refund events); revenue counts `amount_cents - refunded_cents`. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** The provider's charge of this payment (Stripe payment intent): refund events find it by this. */
    chargeRef: text('charge_ref'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId),
    index('payments_charge_ref_idx').on(t.provider, t.chargeRef),
    check('payments_amount_nonnegative', sql`${t.amountCents} >= 0`),
  ],
);

/**
 * Free trials given (issue 26: one per person): per account, and per Stripe customer and card
 * fingerprint where the provider tells us (stored as SHA-256 hashes, never the raw values).
 * Kept (anonymised) when the account is deleted, so a new account with the same card gets none.
 */
export const trialUses = pgTable(
  'trial_uses',
  {
    id: primaryId(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'nowpayments'] }).notNull(),
    /** The provider's subscription id of the trial. */
    subscriptionRef: text('subscription_ref').notNull(),
    cardFingerprintHash: text('card_fingerprint_hash'),
    customerHash: text('customer_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('trial_uses_subscription_idx').on(t.provider, t.subscriptionRef),
    index('trial_uses_user_idx').on(t.userId),
    index('trial_uses_card_idx').on(t.cardFingerprintHash),
    index('trial_uses_customer_idx').on(t.customerHash),
  ],
);

/**
 * Counters shared by every replica (log-in attempts per account, and other limits): a fixed
 * window per key, and an optional block that grows with repeated failures.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull().default(0),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [index('rate_limits_window_idx').on(t.windowEndsAt)],
);

/**
 * Answers shared by every replica without Redis (providers/cache): the guest catalogue's pages
 * and its version. Unlogged (a crash empties it: it is only a cache); ended entries are
 * purged now and then.
 */
export const sharedCache = pgTable(
  'shared_cache',
  {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('shared_cache_expires_idx').on(t.expiresAt)],
);

/** Provider events already handled: a redelivered event id is acknowledged and skipped. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_events_pk_idx').on(t.provider, t.eventId)],
);

// ---------------------------------------------------------------------------------------
// Chats (issue 5): conversations between a user and a character, and their messages.
// ---------------------------------------------------------------------------------------

/** A conversation of one user with one character; `updated_at` is the last activity. */
export const chats = pgTable(
  'chats',
  {
    id: primaryId(),
    userId: ownerUserId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    /** The persona (a bot of kind persona) the character sees the user as; null: the profile name. */
    personaId: uuid('persona_id').references(() => bots.id, { onDelete: 'set null' }),
    /** A model id of the catalogue; null for the default model. */
    modelId: text('model_id'),
    /** The user's name for the chat (1..80 characters); null: the list shows the character's name. */
    title: text('title'),
    /** The summary of older messages (Memories panel); written in the background, editable. */
    memory: text('memory').notNull().default(''),
    memoryUpdatedAt: timestamp('memory_updated_at', { withTimezone: true }),
    /** The newest message `seq` the memory summary covers; 0 when none. */
    memoryThroughSeq: bigint('memory_through_seq', { mode: 'number' }).notNull().default(0),
    /** False: "don't remember this chat" — no long-term memory is extracted from it (docs/memory.md). */
    remember: boolean('remember').notNull().default(true),
    /** The newest message `seq` the user has read on any device (issue 31: unread counts); 0: none. */
    readThroughSeq: bigint('read_through_seq', { mode: 'number' }).notNull().default(0),
    /** When the AI disclosure was last shown in this chat (PRODUCT.md §6). */
    disclosedAt: timestamp('disclosed_at', { withTimezone: true }),
    /**
     * A branch (issue 29, docs/chat.md "Branches"): the chat it was branched from (its branches
     * go with it), the first chat of its tree, and the message it was branched at. Null for a
     * chat that is no branch.
     */
    parentChatId: uuid('parent_chat_id').references((): AnyPgColumn => chats.id, { onDelete: 'cascade' }),
    rootChatId: uuid('root_chat_id'),
    forkMessageId: uuid('fork_message_id'),
    /**
     * The author's note (docs/chat.md "Author's note"): the user's steer, inserted into the
     * prompt `author_note_depth` messages before the newest (0: after it); '' for none.
     */
    authorNote: text('author_note').notNull().default(''),
    authorNoteDepth: smallint('author_note_depth').notNull().default(4),
    /**
     * A group scene (issue 32, docs/groups.md): several characters (`chat_characters`) and, by
     * invitation, several people (`chat_people`). `bot_id` stays the scene's first character.
     */
    isGroup: boolean('is_group').notNull().default(false),
    scenePlace: text('scene_place').notNull().default(''),
    sceneSituation: text('scene_situation').notNull().default(''),
    turnMode: text('turn_mode', { enum: ['auto', 'manual'] })
      .notNull()
      .default('auto'),
    /** "Continue": the turns the characters still take among themselves; 0 when none runs. */
    continueRemaining: smallint('continue_remaining').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chats_user_idx').on(t.userId, t.updatedAt),
    index('chats_user_bot_idx').on(t.userId, t.botId),
    index('chats_root_idx').on(t.rootChatId),
  ],
);

/** The characters of a group chat (issue 32), in the order of their faces. */
export const chatCharacters = pgTable(
  'chat_characters',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(0),
    /** Muted: stays in the scene, never picked to speak unless addressed. */
    muted: boolean('muted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.botId] })],
);

/**
 * The people a group chat's owner let in (issue 32): each with a persona of their own. A removed
 * person's row stays with `removed_at` (and `blocked`: never again through any link).
 */
export const chatPeople = pgTable(
  'chat_people',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: ownerUserId(),
    personaId: uuid('persona_id').references(() => bots.id, { onDelete: 'set null' }),
    inviteId: uuid('invite_id'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    blocked: boolean('blocked').notNull().default(false),
    /** What this person has read of the scene (their unread count; the owner's is `chats.read_through_seq`). */
    readThroughSeq: bigint('read_through_seq', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.userId] }), index('chat_people_user_idx').on(t.userId)],
);

/** Invite links of a scene (issue 32): expiring, revocable, with a member limit. */
export const chatInvites = pgTable(
  'chat_invites',
  {
    id: primaryId(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    maxMembers: smallint('max_members').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('chat_invites_code_idx').on(t.code), index('chat_invites_chat_idx').on(t.chatId)],
);

/**
 * The shared history of a branch: the messages of `source_chat_id` up to `through_seq` are
 * part of `chat_id`'s history (one row per ancestor: a branch is made in constant time, its
 * rows are never copied). A chat's own messages follow (their `seq` are all larger).
 */
export const chatSegments = pgTable(
  'chat_segments',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    sourceChatId: uuid('source_chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    throughSeq: bigint('through_seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.sourceChatId] }),
    index('chat_segments_source_idx').on(t.sourceChatId, t.throughSeq),
  ],
);

/**
 * A chat's own change to a message it shares with another chat of its tree (copy on write): an
 * edited text, or `deleted` — the shared row itself is never changed, so the other chats keep
 * their history.
 */
export const messageOverrides = pgTable(
  'message_overrides',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    text: text('text'),
    tokens: integer('tokens'),
    deleted: boolean('deleted').notNull().default(false),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.messageId] })],
);

/**
 * Messages, ordered by `seq` (a global sequence: the keyset of the history). A bot reply
 * answers `reply_to` (a user message); regenerating adds an alternative with the same
 * `reply_to`, the next `alt_index` and the same place (`seq`, `created_at`: a reply's
 * alternatives share their `seq`); `selected` marks the one the history shows.
 */
export const messages = pgTable(
  'messages',
  {
    id: primaryId(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** The chat's owner, repeated so that every lookup is authorised in one index read. */
    userId: ownerUserId(),
    clientId: uuid('client_id'),
    role: text('role', { enum: ['user', 'bot', 'system'] }).notNull(),
    kind: smallint('kind').notNull().default(1),
    text: text('text').notNull().default(''),
    state: text('state', { enum: ['streaming', 'done', 'stopped', 'failed'] })
      .notNull()
      .default('done'),
    errorCode: text('error_code'),
    notice: text('notice', { enum: ['ai_disclosure', 'crisis', 'refusal'] }),
    replyTo: uuid('reply_to'),
    altIndex: smallint('alt_index').notNull().default(0),
    selected: boolean('selected').notNull().default(true),
    /** A picture message: the media key of what the user sees (original or blurred preview). */
    mediaKey: text('media_key'),
    /** A blurred picture's private original (issue 7); never reachable through `media_key`. */
    originalKey: text('original_key'),
    /** Voice message of a bot text (issue 7): null until asked, then processing → ready | error. */
    audioState: text('audio_state', { enum: ['processing', 'ready', 'error'] }),
    audioKey: text('audio_key'),
    /**
     * Estimated tokens of `text` (`estimateTokens`), written with the text: the prompt's history
     * is read up to the context's budget without counting every message again.
     */
    tokens: integer('tokens').notNull().default(0),
    /** A live reply (`streaming`): the replica generating it, and until when it is presumed alive. */
    owner: text('owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Said in a voice call (issue 14): the user's words as recognised, the reply as spoken. */
    spoken: boolean('spoken').notNull().default(false),
    /** When the user last edited the text (issue 29); null: never edited. */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /**
     * She wrote first (docs/companion.md): the planned time of the slot this message was
     * written for. Unique per chat, so a slot retried after its replica died is never written twice.
     */
    proactiveSlot: timestamp('proactive_slot', { withTimezone: true }),
    /**
     * Group scenes (issue 32): who said it, as named when it was said (a character of the
     * scene, or a person of a scene of several people); null in a one-to-one chat.
     */
    speaker: jsonb('speaker').$type<StoredSpeaker>(),
    /** A person's message in a scene: who wrote it (null: the chat's owner). */
    authorId: uuid('author_id'),
    /** Seen only by this person (a crisis reply in a scene, a joiner's AI disclosure); null: everyone's. */
    privateTo: uuid('private_to'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // No index on `seq` alone (migration 0027 dropped `messages_seq_idx`): `seq` comes from one
    // sequence (only a reply's alternatives share one), and every read is per chat. With it, a chat's
    // newest page or `max(seq)` could be planned as a backward walk of the global index that
    // skipped every newer message of every other chat (docs/chat.md "Long chats").
    uniqueIndex('messages_proactive_idx')
      .on(t.chatId, t.proactiveSlot)
      .where(sql`${t.proactiveSlot} is not null`),
    /** At most one live reply per chat, across every replica. */
    uniqueIndex('messages_live_idx')
      .on(t.chatId)
      .where(sql`${t.state} = 'streaming'`),
    index('messages_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.state} = 'streaming'`),
    index('messages_chat_idx').on(t.chatId, t.seq),
    /** Jump to a date in a long chat (docs/chat.md "Long chats"). */
    index('messages_chat_created_idx').on(t.chatId, t.createdAt),
    uniqueIndex('messages_client_idx')
      .on(t.chatId, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('messages_reply_idx').on(t.replyTo, t.altIndex),
  ],
);

/**
 * Voice calls (issue 14, docs/calls.md). A live call (`ended_at` null) belongs to the replica
 * `owner` until `lease_until`, renewed while its socket is connected; the partial unique
 * index `calls_live_idx` allows one live call per user across every replica. A call whose
 * lease ran out is ended by any replica (or resumed with its key within the grace period).
 */
export const calls = pgTable(
  'calls',
  {
    id: primaryId(),
    userId: ownerUserId(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** The replica holding the call's socket (a random id per process); null while none does. */
    owner: text('owner'),
    /** Until when the call is presumed alive: the token's life, then renewed by its owner, then the resume grace. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a socket first connected (billing starts here); null while only the token exists. */
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    /** The last time the owner saw the socket alive (and wrote the billed seconds). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
    /** Seconds counted so far (connect to end), written at least every 10 s; 0 while `recognition` is `failed`. */
    secondsBilled: integer('seconds_billed').notNull().default(0),
    /**
     * Speech recognition in the call: null (not tried yet), `failed` (tried, never worked: the
     * call counts no minute), `worked` (an utterance was understood at least once).
     */
    recognition: text('recognition', { enum: ['failed', 'worked'] }),
    /** The user's language when the call started (recognition's hint, spoken notices). */
    locale: text('locale').notNull().default('en'),
    /** SHA-256 of the resume key (hex); the key itself is only given to the client. */
    resumeKeyHash: text('resume_key_hash').notNull(),
  },
  (t) => [
    /** At most one live call per user, across every replica. */
    uniqueIndex('calls_live_idx')
      .on(t.userId)
      .where(sql`${t.endedAt} is null`),
    index('calls_user_started_idx').on(t.userId, t.startedAt),
    index('calls_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.endedAt} is null`),
    uniqueIndex('calls_resume_idx').on(t.resumeKeyHash),
  ],
);

/** Crisis-protocol and guard events, counted for reporting (no message text is kept). */
export const safetyEvents = pgTable(
  'safety_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['crisis', 'minors_input', 'minors_output'] }).notNull(),
    locale: text('locale'),
    createdAt: createdAt(),
  },
  (t) => [
    index('safety_events_kind_idx').on(t.kind, t.createdAt),
    /** The companion's crisis pause: a user's crisis events of the last days, one index read. */
    index('safety_events_crisis_user_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.kind} = 'crisis'`),
  ],
);

/** Messages users reported (PRODUCT.md §6), for the admin console. */
export const messageReports = pgTable(
  'message_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: ownerUserId(),
    reason: text('reason').notNull(),
    comment: text('comment').notNull().default(''),
    status: text('status', { enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    /** What the administrator decided (free text), and who. */
    resolution: text('resolution'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('message_reports_once_idx').on(t.messageId, t.userId),
    index('message_reports_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'open'`),
  ],
);

// ---------------------------------------------------------------------------------------
// The operator's side (issue 15): audit log, takedown requests, webhook deliveries, setup.
// ---------------------------------------------------------------------------------------

/** Every write made in the admin console: who, when, what, before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The administrator; null once that account is deleted (the e-mail stays). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    /** e.g. `user.ban`, `character.approve`, `takedown.remove`. */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

/** Takedown requests (`/takedown`, TAKE IT DOWN Act): handled within 48 hours. */
export const takedownRequests = pgTable(
  'takedown_requests',
  {
    id: primaryId(),
    /** The reference the reporter gets by e-mail (e.g. `TD-7K2M9QXA`). */
    reference: text('reference').notNull(),
    email: text('email').notNull(),
    /** What to take down: links (character pages, media URLs) and message ids, as given. */
    items: text('items')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    description: text('description').notNull(),
    /** The good-faith statement's signature (the reporter's full name). */
    signature: text('signature').notNull(),
    locale: text('locale').notNull().default('en'),
    status: text('status', { enum: ['open', 'removed', 'rejected'] })
      .notNull()
      .default('open'),
    /** What the administrator wrote to the reporter when closing it. */
    resolution: text('resolution'),
    /** What the removal took down (media keys, message ids, character ids). */
    removed: jsonb('removed').$type<Record<string, unknown> | null>(),
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('takedown_requests_reference_idx').on(t.reference),
    index('takedown_requests_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'open'`),
    index('takedown_requests_created_idx').on(t.createdAt.desc()),
  ],
);

/** Every payment webhook delivery and its outcome (admin console "Payments"). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    /** The provider's event id and type, when the body was signed and readable. */
    eventId: text('event_id'),
    type: text('type'),
    outcome: text('outcome', { enum: ['processed', 'duplicate', 'ignored', 'rejected', 'failed'] }).notNull(),
    httpStatus: smallint('http_status').notNull(),
    /** A short reason (never the body, never a secret). */
    detail: text('detail'),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_received_idx').on(t.receivedAt.desc(), t.id.desc())],
);

/** One-time links that make the first administrator with the server running. */
export const adminSetupTokens = pgTable('admin_setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  usedBy: uuid('used_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * Image style transforms (issue 16, docs/transform.md): one row per photo the user uploads.
 * `uploaded` → `verified` (rights confirmed, moderation passed) → `processing` (paid, a job
 * queued) → `ready` | `failed`. The partial unique index `image_transforms_running_idx`
 * allows one processing transform per user. Files live under `transforms/<user id>/`.
 */
export const imageTransforms = pgTable(
  'image_transforms',
  {
    id: primaryId(),
    userId: ownerUserId(),
    style: text('style').notNull(),
    state: text('state', { enum: ['uploaded', 'verified', 'processing', 'ready', 'failed'] })
      .notNull()
      .default('uploaded'),
    /** The sanitised upload (WebP, metadata stripped), kept while the transform exists. */
    originalKey: text('original_key').notNull(),
    resultKey: text('result_key'),
    rightsConfirmedAt: timestamp('rights_confirmed_at', { withTimezone: true }),
    /** Desires actually debited (0 for premium; set back to 0 when refunded). */
    charged: integer('charged').notNull().default(0),
    /** Why it failed (a stable code, never internals). */
    errorCode: text('error_code'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    /** At most one running transform per user, across every replica. */
    uniqueIndex('image_transforms_running_idx')
      .on(t.userId)
      .where(sql`${t.state} = 'processing'`),
    index('image_transforms_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);

/**
 * Long-term memories (issue 28, docs/memory.md), per user and character, shared by all that
 * pair's chats; the memories module owns them. The row is the current revision; every revision
 * (the current one included) is in `memory_revisions`. `terms` are the search terms scoped to
 * the pair (`<pair key>:<term>`, modules/memories/terms.ts) behind one GIN index; `dedupe_key`
 * the normalised text, unique per pair (two replicas extracting the same fact add one row).
 */
export const memories = pgTable(
  'memories',
  {
    id: primaryId(),
    userId: ownerUserId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['user', 'event', 'relationship', 'character', 'story'] }).notNull(),
    text: text('text').notNull(),
    eventDate: text('event_date'),
    importance: smallint('importance').notNull().default(3),
    pinned: boolean('pinned').notNull().default(false),
    origin: text('origin', { enum: ['model', 'user', 'summary'] }).notNull(),
    sourceMessageIds: text('source_message_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    terms: text('terms')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    dedupeKey: text('dedupe_key').notNull(),
    /**
     * The text's embedding when the model endpoint offers one (cosine over a candidate set), as
     * bytes (`db/float4-vector.ts`). Written since migration 0029, which filled it from `embedding`.
     */
    vector: float4Vector('vector'),
    /**
     * The embedding as written before migration 0029 (`real[]`, parsed from text at every read):
     * no longer written; read only where `vector` is missing (a memory an older replica wrote
     * during a rolling upgrade), and kept so that an older version still finds its vectors.
     */
    embedding: real('embedding').array(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('memories_pair_idx').on(t.userId, t.botId, t.updatedAt),
    uniqueIndex('memories_dedupe_idx').on(t.userId, t.botId, t.dedupeKey),
    index('memories_pinned_idx')
      .on(t.userId, t.botId)
      .where(sql`${t.pinned}`),
    index('memories_terms_idx').using('gin', t.terms),
  ],
);

/** Every revision of a memory, newest last: a correction supersedes, it never overwrites. */
export const memoryRevisions = pgTable(
  'memory_revisions',
  {
    id: primaryId(),
    memoryId: uuid('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    change: text('change', { enum: ['created', 'corrected', 'merged', 'pinned', 'unpinned'] }).notNull(),
    origin: text('origin', { enum: ['model', 'user', 'summary'] }).notNull(),
    kind: text('kind', { enum: ['user', 'event', 'relationship', 'character', 'story'] }).notNull(),
    text: text('text').notNull(),
    eventDate: text('event_date'),
    importance: smallint('importance').notNull(),
    pinned: boolean('pinned').notNull(),
    sourceMessageIds: text('source_message_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [index('memory_revisions_memory_idx').on(t.memoryId, t.createdAt)],
);

/** The memories in a reply's prompt (`position` their order) and whether the reply drew on each. */
export const messageMemories = pgTable(
  'message_memories',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    memoryId: uuid('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    drewOn: boolean('drew_on').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.memoryId] }), index('message_memories_memory_idx').on(t.memoryId)],
);

/** How far each chat's messages were read for memories (the extraction job's cursor). */
export const memoryExtractions = pgTable('memory_extractions', {
  chatId: uuid('chat_id')
    .primaryKey()
    .references(() => chats.id, { onDelete: 'cascade' }),
  throughSeq: bigint('through_seq', { mode: 'number' }).notNull().default(0),
  /** The chat's summary (the short-term layer) was copied into memories once (docs/memory.md "Migration"). */
  summaryImported: boolean('summary_imported').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's memory settings with one character: the journal (off by default). */
export const memorySettings = pgTable(
  'memory_settings',
  {
    userId: ownerUserId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    journal: boolean('journal').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.botId] })],
);

/** The character's journal: one entry per day of conversation, in her voice. */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: primaryId(),
    userId: ownerUserId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    text: text('text').notNull(),
    memoryIds: text('memory_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('journal_entries_day_idx').on(t.userId, t.botId, t.day)],
);

/**
 * The companion between conversations (docs/companion.md): the user's settings of proactive
 * messages and the state their care rules keep (unanswered messages, today's count, the digest).
 */
export const companionSettings = pgTable(
  'companion_settings',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** IANA time zone from the browser; null: not known yet (UTC). */
    timeZone: text('time_zone'),
    /** Quiet hours, minutes after local midnight (22:00–09:00 by default). */
    quietStart: smallint('quiet_start').notNull().default(1320),
    quietEnd: smallint('quiet_end').notNull().default(540),
    /** Proactive messages a day at most, across every character. */
    dailyCap: smallint('daily_cap').notNull().default(3),
    emailDigest: boolean('email_digest').notNull().default(false),
    /** Proactive messages since the user last wrote (two: they stop until the user writes). */
    unanswered: smallint('unanswered').notNull().default(0),
    /** The local day (`YYYY-MM-DD` in `time_zone`) `day_count` counts. */
    day: text('day'),
    dayCount: smallint('day_count').notNull().default(0),
    /** A proactive message waits for the digest since this time; null: nothing waits. */
    digestPendingSince: timestamp('digest_pending_since', { withTimezone: true }),
    digestSentAt: timestamp('digest_sent_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    /** The digests due: only users who chose it and have a message waiting. */
    index('companion_settings_digest_idx')
      .on(t.digestPendingSince)
      .where(sql`${t.emailDigest} and ${t.digestPendingSince} is not null`),
  ],
);

/**
 * One chat's proactive messages: its frequency and its next slot. `slot_at` is the planned
 * time (the key the message is written with); `due_at` is when a replica may next claim it
 * (the slot's time, then its lease after a claim; null: nothing planned). `attempts` counts
 * the claims of this slot: a slot claimed a third time (its replica died twice) is skipped.
 */
export const companionSlots = pgTable(
  'companion_slots',
  {
    chatId: uuid('chat_id')
      .primaryKey()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: ownerUserId(),
    frequency: text('frequency', { enum: ['few_weekly', 'daily', 'several_daily'] }).notNull(),
    slotAt: timestamp('slot_at', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    attempts: smallint('attempts').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    /** The claim: due slots in due order, from the index alone (partial: only planned slots). */
    index('companion_slots_due_idx')
      .on(t.dueAt)
      .where(sql`${t.dueAt} is not null`),
    index('companion_slots_user_idx').on(t.userId),
  ],
);

/**
 * Web Push subscriptions (issue 31, docs/companion.md "Push and the app"): one row per device
 * and browser, keyed by its push service endpoint. Removed when the push service answers 404
 * or 410, when the device unsubscribes, or with the account.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: primaryId(),
    userId: ownerUserId(),
    /** The push service's URL for this device (unique: a device re-subscribing replaces its row). */
    endpoint: text('endpoint').notNull(),
    /** The subscription's P-256 public key and auth secret (base64url), to encrypt payloads. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/** A user's notification choices (one row, written on first change; absent: the defaults). */
export const pushPreferences = pgTable('push_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Show the character's first words in a notification (default true); false: name only. */
  preview: boolean('preview').notNull().default(true),
  /** Also notify when a long reply or a picture is finished while the user is away (default false). */
  replies: boolean('replies').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------
// Lorebooks (issue 29, docs/lorebooks.md): the lorebooks module owns them.
// ---------------------------------------------------------------------------------------

/**
 * A lorebook: a character's (its card's `character_book`, edited by the character's author;
 * `bot_id` set, one per character) or a user's own (`bot_id` null), used in every chat of the
 * user when `global`, else in the chats it is attached to (`chat_lorebooks`). `version` goes up
 * with every change of the book or its entries: the prompt's compiled keys are cached per
 * `id:version`.
 */
export const lorebooks = pgTable(
  'lorebooks',
  {
    id: primaryId(),
    userId: ownerUserId(),
    botId: uuid('bot_id').references(() => bots.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** How many of the newest messages are scanned for keys. */
    scanDepth: smallint('scan_depth').notNull().default(4),
    /** The most tokens the book's entries take in a prompt; 0: only the prompt's share. */
    tokenBudget: integer('token_budget').notNull().default(0),
    global: boolean('global').notNull().default(false),
    version: integer('version').notNull().default(1),
    /** Book fields this server does not model (a card's `extensions`, `recursive_scanning`, …). */
    extensions: jsonb('extensions').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lorebooks_user_idx').on(t.userId, t.updatedAt), uniqueIndex('lorebooks_bot_idx').on(t.botId)],
);

/** One entry of a lorebook (World Info's fields, docs/lorebooks.md "Entries"). */
export const lorebookEntries = pgTable(
  'lorebook_entries',
  {
    id: primaryId(),
    lorebookId: uuid('lorebook_id')
      .notNull()
      .references(() => lorebooks.id, { onDelete: 'cascade' }),
    /** The entry's number in its book (World Info's `uid`). */
    uid: integer('uid').notNull(),
    keys: text('keys')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    secondaryKeys: text('secondary_keys')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    selectiveLogic: text('selective_logic', { enum: ['and_any', 'and_all', 'not_any', 'not_all'] })
      .notNull()
      .default('and_any'),
    content: text('content').notNull().default(''),
    comment: text('comment').notNull().default(''),
    constant: boolean('constant').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    insertionOrder: integer('insertion_order').notNull().default(100),
    position: text('position', { enum: ['before_char', 'after_char', 'an_top', 'an_bottom', 'at_depth'] })
      .notNull()
      .default('after_char'),
    depth: smallint('depth').notNull().default(4),
    probability: smallint('probability').notNull().default(100),
    caseSensitive: boolean('case_sensitive').notNull().default(false),
    useRegex: boolean('use_regex').notNull().default(false),
    /** Entry fields this server does not model, kept for export. */
    extensions: jsonb('extensions').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('lorebook_entries_uid_idx').on(t.lorebookId, t.uid)],
);

/** A user's lorebook attached to one of their chats. */
export const chatLorebooks = pgTable(
  'chat_lorebooks',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    lorebookId: uuid('lorebook_id')
      .notNull()
      .references(() => lorebooks.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.lorebookId] }), index('chat_lorebooks_book_idx').on(t.lorebookId)],
);

/**
 * What went into a reply's prompt (docs/lorebooks.md "What went into the prompt"): the lore
 * entries that fired and why, the author's note, the memories; written once the reply's row exists.
 */
export const promptTraces = pgTable('prompt_traces', {
  messageId: uuid('message_id')
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  /** The chat's owner and the chat it was written in (the row goes with its message). */
  userId: uuid('user_id').notNull(),
  chatId: uuid('chat_id').notNull(),
  trace: jsonb('trace').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});
/**
 * "Download my data" (docs/accounts.md "Download my data"): one row per archive asked for. The
 * `data-export` job writes the ZIP to media storage (`storage_key`) and marks it `ready` until
 * `expires_at`; the `data-export-expire` job then deletes the file and marks it `expired`.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: primaryId(),
    userId: ownerUserId(),
    state: text('state', { enum: ['preparing', 'ready', 'failed', 'expired'] })
      .notNull()
      .default('preparing'),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('data_exports_user_idx').on(t.userId, t.createdAt)],
);
