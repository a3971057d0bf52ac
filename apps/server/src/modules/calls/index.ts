import type { AppDependencies, Core } from '../../core.js';
import { providerLog } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { createVad } from '../../providers/vad/index.js';
import type { BotsService } from '../bots/index.js';
import type { ChatsApi } from '../chats/index.js';
import type { CallReplies } from './call-session.js';
import { callsRoutes } from './calls.routes.js';
import { CallsService } from './calls.service.js';

export type CallsModuleDeps = Pick<Core, 'config' | 'db' | 'log' | 'secret' | 'stt' | 'tts' | 'pubsub' | 'sessions'> &
  Pick<AppDependencies, 'vad' | 'calls' | 'onCallTimings'> & {
    /** The chats module's replies: a turn is a message sent and its reply streamed. */
    replies: CallReplies;
    /** The chats module: the user's own chat, or the chat with a character. */
    chats: Pick<ChatsApi, 'ownedChat' | 'chatForSlug'>;
    /** The bots module: the voice of a character (none when it is gone). */
    bots: Pick<BotsService, 'findBotById'>;
  };

declare module 'fastify' {
  interface FastifyInstance {
    /** Voice calls (docs/calls.md); tests and the benchmark read `size`, the system module `availability`. */
    calls: CallsService;
  }
}

/**
 * The calls module (issue 14, docs/calls.md): `POST /api/audio_chat/token` and the call's
 * WebSocket. A call is a conversation in a chat, said aloud; its row in the database lets any
 * replica resume or end it.
 */
export const callsModule = defineModule<CallsModuleDeps>('calls', async (app, deps) => {
  const { config } = deps;
  const calls = new CallsService({
    ...deps,
    characterVoice: async (botId) => (await deps.bots.findBotById(botId))?.voice ?? null,
    vad: deps.vad ?? (() => createVad(config, providerLog(deps.log, 'vad'))),
    onTimings: deps.onCallTimings,
    settings: {
      minutesPerDay: config.CALL_MINUTES_PER_DAY,
      endOfTurnMs: config.CALL_END_OF_TURN_MS,
      minSpeechMs: config.CALL_MIN_SPEECH_MS,
      resumeGraceS: config.CALL_RESUME_GRACE_S,
      tokenTtlS: config.CALL_TOKEN_TTL_S,
      outputSampleRate: config.CALL_OUTPUT_SAMPLE_RATE,
      leadMs: config.CALL_PLAYBACK_LEAD_MS,
      ttsTimeoutMs: config.TTS_TIMEOUT_S * 1000,
      ...deps.calls,
    },
  });
  app.decorate('calls', calls);
  calls.start();
  // Calls end (server_shutdown) before the replies and the database close: this preClose hook
  // is added before the job queue's, which app.ts adds last.
  app.addHook('preClose', async () => calls.close());
  await app.register(callsRoutes, { service: calls });
});

/** What other modules and the app may use of the calls module. */
export type { CallsService, CallChats, CallSettings, VadFactory } from './calls.service.js';
export type { CallReplies, TurnTimings } from './call-session.js';
