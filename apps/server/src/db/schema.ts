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
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Accounts. The accounts module owns them (sign-up, tokens, profile); other modules only
 * reference `users.id`.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    sortOrder: integer('sort_order').notNull().default(0),
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

/** A character's gallery: pictures in media storage, in order. */
export const botPictures = pgTable(
  'bot_pictures',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    /** When the AI disclosure was last shown in this chat (PRODUCT.md §6). */
    disclosedAt: timestamp('disclosed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chats_user_idx').on(t.userId, t.updatedAt), index('chats_user_bot_idx').on(t.userId, t.botId)],
);

/**
 * Messages, ordered by `seq` (a global sequence: the keyset of the history). A bot reply
 * answers `reply_to` (a user message); regenerating adds an alternative with the same
 * `reply_to` and the next `alt_index`; `selected` marks the one the history shows.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    /** The chat's owner, repeated so that every lookup is authorised in one index read. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_seq_idx').on(t.seq),
    /** At most one live reply per chat, across every replica. */
    uniqueIndex('messages_live_idx')
      .on(t.chatId)
      .where(sql`${t.state} = 'streaming'`),
    index('messages_lease_idx')
      .on(t.leaseUntil)
      .where(sql`${t.state} = 'streaming'`),
    index('messages_chat_idx').on(t.chatId, t.seq),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
  (t) => [index('safety_events_kind_idx').on(t.kind, t.createdAt)],
);

/** Messages users reported (PRODUCT.md §6), for the admin console. */
export const messageReports = pgTable(
  'message_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
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
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
