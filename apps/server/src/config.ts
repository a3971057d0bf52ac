import path from 'node:path';
import { z } from 'zod';
import { openAiCatalogue } from './providers/llm/catalogue.js';
import { EDITION_IDS } from '@reverie/shared';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const commaList = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/**
 * Every setting of the server, parsed once from the environment. `.env.example` documents
 * each of them with its default; nothing else in the code reads `process.env`.
 */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public address of the web app, used in links (e-mails, Open Graph, checkout returns). */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  /** Where embedded data lives: the PGlite database, media files, models. */
  DATA_DIR: z.string().default('./data'),
  /** A PostgreSQL connection string; without it the embedded PGlite database is used. */
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * A Redis server (`redis://host:6379`) shared by the replicas, for pub/sub between them
   * (session revocations, live replies). Without it PostgreSQL's LISTEN/NOTIFY is used on a
   * PostgreSQL server, and in-process channels on the embedded database.
   */
  REDIS_URL: z.string().optional(),
  APP_NAME: z.enum(EDITION_IDS).default('reverie'),
  /** Extra origins allowed to call the API from a browser (the web app on its own host). */
  WEB_ORIGIN: commaList.default([]),
  /** The built web app; empty disables serving it (API-only deployments). */
  WEB_DIST_DIR: z.string().optional(),
  /** Overrides the edition's community chat link; `none` hides the news banner. */
  COMMUNITY_URL: z.string().optional(),
  /** Rewardful affiliate key; when set the web app loads Rewardful and reports it. */
  REWARDFUL_API_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Pretty, human-readable logs instead of JSON lines. */
  LOG_PRETTY: booleanFromEnv.optional(),
  /** Trust X-Forwarded-* headers (behind a reverse proxy). */
  TRUST_PROXY: booleanFromEnv.default(false),
  /** Seed the official content on start when the database is empty. */
  SEED_ON_START: booleanFromEnv.default(true),
  /** Seconds to let open requests and streams finish on shutdown. */
  SHUTDOWN_GRACE_S: z.coerce.number().int().min(1).max(600).default(15),
  /** Requests a single IP may make per minute to the API before 429. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Secret for signing access tokens; generated into DATA_DIR/secret.key when unset. */
  JWT_SECRET: z.string().min(32).optional(),
  /**
   * Web Push (docs/companion.md "Push and the app"): the VAPID key pair, base64url (what
   * `npx web-push generate-vapid-keys` prints). Unset: generated once into DATA_DIR/vapid.json.
   * Replicas must share one pair (a subscription is bound to the public key it was made with).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/)
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/)
    .optional(),
  /** Who the push services may contact (`mailto:` or `https:`); default: PUBLIC_URL when https, else mailto:push@<edition domain>. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/)
    .optional(),
  /** An outbound HTTP(S) proxy for the push services (http://proxy:3128), when the servers reach the internet only through one. */
  PUSH_PROXY: z.url().optional(),
  /** Device subscriptions a user may register per hour (each device subscribes once; more is a loop). */
  PUSH_SUBSCRIBE_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Seconds after a chat picture lands before it counts as unseen (a push when still unread; docs/companion.md). */
  PICTURE_NOTICE_DELAY_S: z.coerce.number().int().min(0).max(3600).default(15),
  /** Bearer token required to read /metrics. Without it /metrics answers 404 in production unless METRICS_PUBLIC is true. */
  METRICS_TOKEN: z.string().optional(),
  /** Serve /metrics without a token in production (only when the port is private or a proxy guards the path). */
  METRICS_PUBLIC: booleanFromEnv.default(false),
  /** `rules` (built-in multilingual minors detector) or `openai` (an OpenAI-compatible /moderations endpoint). */
  MODERATION_PROVIDER: z.enum(['rules', 'openai']).default('rules'),
  MODERATION_URL: z.string().default('https://api.openai.com/v1'),
  MODERATION_API_KEY: z.string().optional(),
  MODERATION_MODEL: z.string().default('omni-moderation-latest'),
  /** Publish public custom characters at once when the moderation provider passes them (needs MODERATION_PROVIDER=openai). */
  MODERATION_AUTO_APPROVE: booleanFromEnv.default(false),
  /**
   * Pictures judged offline (docs/moderation.md): `local` (default) runs a face-age estimate and a
   * nudity classifier in a worker thread; `none` judges nothing locally (a loud warning at start;
   * refused in production unless IMAGE_MODERATION_NONE_ACKNOWLEDGED names it); `fake` is for tests
   * only (the local judge's contract without its models; refused unless NODE_ENV=test).
   */
  IMAGE_MODERATION: z.enum(['local', 'none', 'fake']).default('local'),
  /** Needed with IMAGE_MODERATION=none in production: the operator accepts that no picture is judged locally. */
  IMAGE_MODERATION_NONE_ACKNOWLEDGED: booleanFromEnv.default(false),
  /** A face estimated younger than this is refused: 18 plus a safety margin for the age net's error. */
  IMAGE_MODERATION_MIN_AGE: z.coerce.number().min(18).max(40).default(21),
  /** Faces detected less confidently than this are not judged (drawings give weak, absurd faces). */
  IMAGE_MODERATION_FACE_SCORE: z.coerce.number().min(0.3).max(0.99).default(0.6),
  /** The nudity classifier's porn + hentai score from which a picture is marked explicit. */
  IMAGE_MODERATION_EXPLICIT_SCORE: z.coerce.number().min(0.05).max(1).default(0.6),
  /** Longest time one picture may take in the judge's worker before it is restarted (and the upload answers 503). */
  IMAGE_MODERATION_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(20_000),
  /** SMTP server for e-mail (smtp://user:pass@host:587, smtps://…); unset keeps mail in the local outbox (/dev/mailbox). */
  SMTP_URL: z.string().optional(),
  /** The From address of e-mails; defaults to "<edition name> <no-reply@<edition domain>>". */
  MAIL_FROM: z.string().optional(),
  /** Sign-up, log-in, password reset and resend requests one IP may make per minute. */
  AUTH_RATE_LIMIT_IP_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Attempts per minute for one account (keyed by e-mail, and by e-mail and IP for log-in; across addresses the LOGIN_* delays apply). */
  AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  /** Takedown requests (`POST /api/takedown`) one IP may send per hour. */
  TAKEDOWN_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Takedown requests (each acknowledged by e-mail) per reporter e-mail per day. */
  TAKEDOWN_PER_EMAIL_PER_DAY: z.coerce.number().int().min(1).default(5),
  /**
   * Milliseconds a limit waits for the shared counters (Redis or the database) before its
   * failure mode: counted in process for reads (open), 503 for money and e-mail (closed).
   */
  LIMITS_TIMEOUT_MS: z.coerce.number().int().min(10).max(5000).default(400),
  /** Seconds a guest catalogue page is kept in the shared cache (0: no cache); publishing or editing a character empties it at once. */
  CATALOGUE_CACHE_S: z.coerce.number().int().min(0).max(3600).default(60),
  /** Picture decodes and encodes (sharp) one process runs at once; past them uploads wait in a queue. */
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Uploads one process lets wait for a picture slot; past it they are answered 503 with Retry-After. */
  IMAGE_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
  /** Character pictures (creation with a photo, card imports) one user may upload per hour. */
  CHARACTER_PHOTOS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /** Characters and personas one user may create, import or duplicate per hour. */
  CHARACTER_CREATIONS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /** Public characters (new, imported or made public) one user may send to the review queue per day. */
  CHARACTER_SUBMISSIONS_PER_DAY: z.coerce.number().int().min(1).default(10),
  /** Support reports one account (or, for a guest, one e-mail address) may send per hour. */
  SUPPORT_REPORTS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Analytics events (rows) one user or device may store per minute. */
  ANALYTICS_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** E-mail confirmation codes (`GET /api/activate/{code}`) one account, or one address for guests, may try per hour. */
  ACTIVATION_CHECKS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Days a payment webhook delivery is kept in `webhook_deliveries` (admin console "Payments"). */
  WEBHOOK_DELIVERIES_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Failed log-ins of one account (from any address, counted by all replicas) before its log-in pauses. */
  LOGIN_FAILURES_BEFORE_DELAY: z.coerce.number().int().min(1).max(100).default(5),
  /** Seconds the first pause lasts; each further failure doubles it. */
  LOGIN_DELAY_BASE_S: z.coerce.number().int().min(1).max(3600).default(30),
  /** The longest pause in seconds. */
  LOGIN_DELAY_MAX_S: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Minutes a password reset link stays valid. */
  PASSWORD_RESET_TTL_MIN: z.coerce.number().int().min(5).max(1440).default(60),
  /** Days an e-mail verification link stays valid. */
  VERIFICATION_TTL_DAYS: z.coerce.number().int().min(1).max(60).default(7),
  /**
   * Card payments: `sandbox` (a local checkout page, no money) or `stripe`. Unset: Stripe when
   * its keys are set, else the sandbox for a local trial (a loopback PUBLIC_URL, whatever NODE_ENV),
   * else buying is off (docs/billing.md, providers/payments/index.ts).
   */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  /** The signing secret of the Stripe webhook endpoint (`whsec_…`). */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Stripe API host, port and protocol; only tests change them (a fake Stripe server). */
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  /** NOWPayments crypto invoices; without a key crypto is off (the sandbox only beside a sandbox card provider). */
  NOWPAYMENTS_API_KEY: z.string().optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().optional(),
  NOWPAYMENTS_API_URL: z.url().default('https://api.nowpayments.io/v1'),
  /** The language model: `local` (a GGUF model in process, node-llama-cpp) or `openai` (any OpenAI-compatible endpoint). */
  LLM_PROVIDER: z.enum(['local', 'openai']).default('local'),
  /** OpenAI-compatible endpoint (OpenAI, OpenRouter, vLLM, llama.cpp server, Ollama…). */
  LLM_BASE_URL: z.string().default('https://api.openai.com/v1'),
  LLM_API_KEY: z.string().optional(),
  /** The default model id at the endpoint (openai), or a label for the local model. */
  LLM_MODEL: z.string().optional(),
  /** The openai provider's catalogue: `id|label|context|premium` entries separated by commas (docs/llm.md). */
  LLM_MODELS: z.string().optional(),
  /** A GGUF file to use instead of pulling the default local model. */
  LLM_MODEL_PATH: z.string().optional(),
  /** What the local engine pulls on first start when LLM_MODEL_PATH is unset (a node-llama-cpp model URI). */
  LLM_MODEL_URI: z.string().default('hf:bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M'),
  /** Context window in tokens (local model; the openai default model unless its catalogue entry says otherwise). */
  LLM_CONTEXT_SIZE: z.coerce.number().int().min(512).max(1_000_000).default(4096),
  /** The longest reply in tokens. */
  LLM_MAX_TOKENS: z.coerce.number().int().min(16).max(8192).default(400),
  LLM_TEMPERATURE: z.coerce.number().min(0).max(2).default(0.8),
  /** The openai provider's `/embeddings` model for memory search (docs/memory.md); unset: full-text search only. */
  LLM_EMBEDDINGS_MODEL: z.string().optional(),
  /** Seconds without a new token before a generation fails with `timeout`. */
  LLM_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(60),
  /** CPU threads of the local engine (the number of cores when unset). */
  LLM_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  /** Replies the local engine generates at once (each takes a context's worth of memory); more wait their turn. */
  LLM_PARALLEL: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * Whether a chat's new messages, the replies' saves and the limits' counters wait for the disk
   * when they commit (docs/operations.md, "Durability of chat writes"). Off by default: they are
   * visible at once everywhere, and only a crash of the PostgreSQL server may lose the last
   * fraction of a second of them; money and accounts always wait.
   */
  CHAT_SYNCHRONOUS_COMMIT: booleanFromEnv.default(false),
  /** Messages one user may send per minute (fair use). */
  CHAT_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Chat files (SillyTavern JSONL) one user may import per hour (docs/chat.md "Import"). */
  CHAT_IMPORTS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /** Seconds after a user turn before its memories are extracted (the turns meanwhile are read together; docs/memory.md). */
  MEMORY_EXTRACT_DELAY_S: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * How a reply's "remembered" mark finds the memories it drew on (docs/memory.md "Citations"):
   * `overlap` (the memory's terms in the reply) or `model` (the model names them in a marker the server strips).
   */
  MEMORY_CITATIONS: z.enum(['overlap', 'model']).default('overlap'),
  /**
   * The longest a reply's prompt waits for its turns' embedding (LLM_EMBEDDINGS_MODEL set;
   * docs/memory.md "Embeddings"): past it the memories are ranked by their words alone.
   */
  MEMORY_EMBED_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  /** Where a character's chat pictures come from: `gallery` (its own pictures), `comfyui` or `openai` (generated; the gallery on failure). */
  IMAGE_PROVIDER: z.enum(['gallery', 'comfyui', 'openai']).default('gallery'),
  /** The image endpoint: a ComfyUI server (http://127.0.0.1:8188) or an OpenAI-compatible base (https://api.openai.com/v1). */
  IMAGE_BASE_URL: z.string().optional(),
  IMAGE_API_KEY: z.string().optional(),
  /** The model id at the OpenAI-compatible endpoint. */
  IMAGE_MODEL: z.string().default('gpt-image-1'),
  /** A ComfyUI workflow (API format JSON) whose text contains `{{prompt}}`; a built-in SD 1.5 workflow when unset. */
  COMFYUI_WORKFLOW: z.string().optional(),
  /** Seconds to wait for one generated picture before falling back to the gallery. */
  IMAGE_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(120),
  /** The style transform's engine (docs/transform.md): `local` (eight styles on sharp, in process) or `comfyui` (img2img on a ComfyUI server). */
  TRANSFORM_PROVIDER: z.enum(['local', 'comfyui']).default('local'),
  /** The ComfyUI server of TRANSFORM_PROVIDER=comfyui (IMAGE_BASE_URL when unset, else http://127.0.0.1:8188). */
  COMFYUI_URL: z.string().optional(),
  /** An img2img workflow (API format JSON) with `{{image}}`, `{{prompt}}`, `{{negative_prompt}}`, `{{seed}}`; a built-in SD 1.5 one when unset. */
  TRANSFORM_COMFYUI_WORKFLOW: z.string().optional(),
  /** Seconds one transform may take before the attempt fails (then it is retried). */
  TRANSFORM_TIMEOUT_S: z.coerce.number().int().min(5).max(1800).default(180),
  /** Transforms one process makes at once. */
  TRANSFORM_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Attempts after the first before a transform fails for good (and is refunded). */
  TRANSFORM_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Seconds before the first retry, doubled each time. */
  TRANSFORM_RETRY_DELAY_S: z.coerce.number().int().min(0).max(3600).default(10),
  /** Photos one user may upload per hour (uploads and previews each). */
  TRANSFORM_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /** Voice messages and calls: `espeak` (espeak-ng in process, no network), `openai` (an OpenAI-compatible /audio/speech endpoint), `elevenlabs` or `local` (Piper voices through sherpa-onnx, pulled on first use; espeak-ng meanwhile). */
  TTS_PROVIDER: z.enum(['espeak', 'openai', 'elevenlabs', 'local']).default('espeak'),
  /** The speech endpoint's base: https://api.openai.com/v1 (openai) or https://api.elevenlabs.io (elevenlabs) by default. */
  TTS_BASE_URL: z.string().optional(),
  TTS_API_KEY: z.string().optional(),
  /** The model at the endpoint: gpt-4o-mini-tts (openai) or eleven_multilingual_v2 (elevenlabs) by default. */
  TTS_MODEL: z.string().optional(),
  /** The provider's voice for characters whose voice is an espeak-ng voice: alloy (openai) by default; a voice id (elevenlabs, required). */
  TTS_VOICE: z.string().optional(),
  /** The provider's voice for characters with a female espeak-ng variant (`+f1`…): nova (openai) by default, else TTS_VOICE. */
  TTS_VOICE_FEMALE: z.string().optional(),
  /** The provider's voice for characters with a male espeak-ng variant (`+m1`…): onyx (openai) by default, else TTS_VOICE. */
  TTS_VOICE_MALE: z.string().optional(),
  /** Seconds one voice message may take to synthesise before it ends in `error`. */
  TTS_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(60),
  /** Voice messages synthesised at the same time; the others wait in line. */
  TTS_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Attempts after the first one when a voice message fails (the job waits TTS_RETRY_DELAY_S, doubling each time). */
  TTS_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Seconds before the first retry of a failed voice message (then doubled, with jitter). */
  TTS_RETRY_DELAY_S: z.coerce.number().int().min(1).max(3600).default(5),
  /**
   * Seconds between the background-job queue's maintenance rounds (one replica at a time): jobs
   * of a replica that died are retried after their expiry and this interval at most.
   */
  JOBS_MAINTENANCE_S: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * The companion (docs/companion.md): seconds between the recurring job that claims due
   * proactive slots (one run per period for the cluster), slots claimed per batch, messages
   * written at once per replica, a claim's lease (its replica died: claimed again after it),
   * the wait before a failed slot's one retry, how old a missed slot may be and still be sent
   * after downtime (each run also sends the e-mail digests due).
   */
  COMPANION_TICK_S: z.coerce.number().int().min(1).max(3600).default(60),
  COMPANION_BATCH: z.coerce.number().int().min(1).max(5000).default(200),
  COMPANION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  COMPANION_LEASE_S: z.coerce.number().int().min(1).max(86_400).default(600),
  COMPANION_RETRY_S: z.coerce.number().int().min(1).max(86_400).default(300),
  COMPANION_CATCH_UP_MIN: z.coerce.number().int().min(1).max(10_080).default(120),
  /** MP3 bit rate (kbit/s) of espeak-ng's speech (22 050 Hz mono: 8–160 in MPEG-2 steps). */
  TTS_MP3_KBPS: z.coerce
    .number()
    .int()
    .refine((v) => [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160].includes(v), 'not an MPEG-2 bit rate')
    .default(32),
  /** Voice activity detection in calls: `silero` (sherpa-onnx-node; WebRTC's when it cannot start) or `webrtc`. */
  CALL_VAD: z.enum(['silero', 'webrtc']).default('silero'),
  /** WebRTC VAD aggressiveness, 0 (lets most through) to 3 (least noise taken for speech). */
  CALL_VAD_WEBRTC_MODE: z.coerce.number().int().min(0).max(3).default(3),
  /** The local speech-recognition model (STT_PROVIDER=local): a Whisper size, pulled into DATA_DIR/models on first use. */
  STT_LOCAL_MODEL: z.enum(['whisper-tiny', 'whisper-base']).default('whisper-tiny'),
  /** Where the local model's files are pulled from: a folder URL holding `{model}-encoder.int8.onnx`, `-decoder.int8.onnx` and `-tokens.txt`. */
  STT_LOCAL_MODEL_URL: z.url().optional(),
  /** CPU threads of local speech recognition and the local voice. */
  SPEECH_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  /** Where the local neural voices (TTS_PROVIDER=local, Piper through sherpa-onnx) are pulled from: a base URL under which each voice is a folder. */
  TTS_LOCAL_VOICES_URL: z.url().optional(),
  /**
   * Speech recognition for voice calls (docs/calls.md): `openai` (any OpenAI-compatible
   * /audio/transcriptions endpoint), `local` (a model pulled on first use) or `none` (calls off).
   */
  STT_PROVIDER: z.enum(['openai', 'local', 'none']).default('local'),
  /** The transcription endpoint's base (openai). */
  STT_BASE_URL: z.string().default('https://api.openai.com/v1'),
  STT_API_KEY: z.string().optional(),
  /** The model at the endpoint (openai). */
  STT_MODEL: z.string().default('whisper-1'),
  /** Seconds one utterance may take to transcribe. */
  STT_TIMEOUT_S: z.coerce.number().int().min(1).max(120).default(15),
  /** Minutes of calling each premium user has per UTC day. */
  CALL_MINUTES_PER_DAY: z.coerce.number().int().min(1).max(1440).default(120),
  /** Silence (ms) that ends the user's turn in a call. */
  CALL_END_OF_TURN_MS: z.coerce.number().int().min(100).max(5000).default(600),
  /** Speech shorter than this (ms) is noise: neither a turn nor an interruption. */
  CALL_MIN_SPEECH_MS: z.coerce.number().int().min(0).max(3000).default(250),
  /** Seconds a dropped call stays resumable (on any replica). */
  CALL_RESUME_GRACE_S: z.coerce.number().int().min(1).max(600).default(20),
  /** Seconds a call token is valid. */
  CALL_TOKEN_TTL_S: z.coerce.number().int().min(5).max(3600).default(60),
  /** The sample rate of the reply audio sent to the client (PCM16 mono). */
  CALL_OUTPUT_SAMPLE_RATE: z.coerce.number().int().min(8000).max(48_000).default(24_000),
  /** How far (ms) the reply audio is sent ahead of the client's playback. */
  CALL_PLAYBACK_LEAD_MS: z.coerce.number().int().min(40).max(5000).default(300),
  /** Media storage: `local` (DATA_DIR/media) or `s3` (any S3-compatible service). */
  STORAGE_PROVIDER: z.enum(['local', 's3']).default('local'),
  /** The S3 endpoint (https://s3.eu-central-1.amazonaws.com, http://127.0.0.1:9000 for MinIO…). */
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style URLs (endpoint/bucket/key) instead of virtual hosts (bucket.endpoint/key); MinIO needs true. */
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(true),
  /** Signs the sandbox provider's webhooks; generated into DATA_DIR when unset. */
  SANDBOX_WEBHOOK_SECRET: z.string().min(16).optional(),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /** DATA_DIR made absolute. */
  dataDir: string;
  isProduction: boolean;
};

export class ConfigError extends Error {}

/** Parses settings once; throws a readable error naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  checkLlmSettings(config);
  // The fake judges nothing: only the tests may choose it, never a server (production or not).
  if (config.IMAGE_MODERATION === 'fake' && config.NODE_ENV !== 'test') {
    throw new ConfigError(
      'Invalid configuration:\n  IMAGE_MODERATION: "fake" is for tests only (NODE_ENV=test): it judges no picture; use local (docs/moderation.md)',
    );
  }
  if (
    config.NODE_ENV === 'production' &&
    config.IMAGE_MODERATION === 'none' &&
    !config.IMAGE_MODERATION_NONE_ACKNOWLEDGED
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  IMAGE_MODERATION: "none" judges no uploaded picture (no face-age estimate, no nudity classifier);' +
        ' in production set IMAGE_MODERATION_NONE_ACKNOWLEDGED=true as well to run that way (docs/moderation.md)',
    );
  }
  return {
    ...config,
    dataDir: path.resolve(config.DATA_DIR),
    isProduction: config.NODE_ENV === 'production',
  };
}

/** The language-model settings that zod alone cannot check (the LLM_MODELS list). */
function checkLlmSettings(config: z.infer<typeof ConfigSchema>): void {
  const problems: string[] = [];
  try {
    const catalogue = openAiCatalogue({
      model: config.LLM_MODEL,
      models: config.LLM_MODELS,
      contextSize: config.LLM_CONTEXT_SIZE,
    });
    if (config.LLM_PROVIDER === 'openai' && catalogue.length === 0)
      problems.push('  LLM_MODEL: the openai provider needs a model id (LLM_MODEL or LLM_MODELS)');
  } catch (error) {
    problems.push(`  LLM_MODELS: ${(error as Error).message}`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}
