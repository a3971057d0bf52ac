/**
 * Server test files that open no database: the PostgreSQL pass of `npm test` leaves them out
 * (vitest.config.ts), since they would only run the same code a second time. A file listed here
 * that creates a test database fails (test/helpers.ts), so a file that starts to use the database
 * has to leave the list and runs on both. Paths are relative to apps/server.
 */
export const DATABASE_FREE_TESTS = [
  'src/lib/group-commit.test.ts',
  'src/lib/i18n.test.ts',
  'src/modules/audio/language.test.ts',
  'src/modules/bots/bot-pictures.test.ts',
  'src/modules/calls/call-session.test.ts',
  'src/modules/calls/sentences.test.ts',
  'src/modules/calls/turn-detector.test.ts',
  'src/modules/chats/function-length.test.ts',
  'src/modules/chats/memory.test.ts',
  'src/modules/chats/prompt.test.ts',
  'src/modules/chats/runner.test.ts',
  'src/modules/chats/safety.test.ts',
  'src/modules/chats/send-plan.test.ts',
  'src/modules/chats/streaming.test.ts',
  'src/modules/pictures/picture-request.test.ts',
  'src/modules/transforms/styles/styles.test.ts',
  'src/modules/transforms/transform-provider.test.ts',
  'src/plugins/error-handler.test.ts',
  'src/providers/image-moderation/image-moderation.test.ts',
  'src/providers/images/image-providers.test.ts',
  'src/providers/llm/local.test.ts',
  'src/providers/llm/openai.test.ts',
  'src/providers/models/pull.test.ts',
  'src/providers/moderation/rules-moderation.test.ts',
  'src/providers/storage/s3-storage.test.ts',
  'src/providers/stt/local.test.ts',
  'src/providers/stt/stt-providers.test.ts',
  'src/providers/tts/sherpa-local.test.ts',
  'src/providers/tts/tts-providers.test.ts',
  'src/providers/vad/vad.test.ts',
  'test/architecture-map.test.ts',
  'test/boundaries.test.ts',
  'test/database-free.test.ts',
  'test/docker-compose.test.ts',
];
