import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChatIdParamsSchema,
  ChatSchema,
  GroupCreateBodySchema,
  SceneAddCharacterBodySchema,
  SceneCharacterParamsSchema,
  SceneCharacterUpdateBodySchema,
  SceneContinueBodySchema,
  SceneContinueSchema,
  SceneInviteCodeParamsSchema,
  SceneInviteCreateBodySchema,
  SceneInviteListSchema,
  SceneInviteParamsSchema,
  SceneInvitePreviewSchema,
  SceneInviteSchema,
  SceneJoinBodySchema,
  SceneMeBodySchema,
  ScenePersonParamsSchema,
  ScenePersonRemoveQuerySchema,
  SceneSchema,
  SceneSpeakBodySchema,
  SceneUpdateBodySchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { RepliesService } from './replies.service.js';
import type { ScenesService } from './scenes.service.js';
import { pipeEvents } from './sse.js';
import { pipeSceneEvents, type SceneEvents } from './scene-events.js';

const errors = apiErrors(400, 401, 403, 404, 409, 410, 422, 429);
const tags = ['scenes'];
const SCENE_CONTINUE_DEFAULT = 3;

type App = Parameters<FastifyPluginAsyncZod>[0];

/** Group scenes (docs/groups.md): characters, setting, turns, people, invite links, live events. */
export const scenesRoutes: FastifyPluginAsyncZod<{
  scenes: ScenesService;
  replies: RepliesService;
  events: SceneEvents;
}> = async (app, { scenes, replies, events }) => {
  sceneRoutes(app, scenes);
  characterRoutes(app, scenes);
  turnRoutes(app, scenes, replies);
  inviteRoutes(app, scenes);
  joinRoutes(app, scenes);
  peopleRoutes(app, scenes, events);
};

function sceneRoutes(app: App, scenes: ScenesService): void {
  app.post(
    '/api/chat/group',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A new group chat with 2–8 characters, a scene setting and the user’s persona',
        body: GroupCreateBodySchema,
        response: { 201: ChatSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return scenes.create(currentUserId(request), request.body, request.locale);
    },
  );
  app.get(
    '/api/chat/:id/scene',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The scene of a group chat',
        params: ChatIdParamsSchema,
        response: { 200: SceneSchema, ...errors },
      },
    },
    async (request) => scenes.get(currentUserId(request), request.params.id),
  );
  app.patch(
    '/api/chat/:id/scene',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The setting (place, situation) and the turn mode (owner)',
        params: ChatIdParamsSchema,
        body: SceneUpdateBodySchema,
        response: { 200: SceneSchema, ...errors },
      },
    },
    async (request) => scenes.update(currentUserId(request), request.params.id, request.body),
  );
  app.patch(
    '/api/chat/:id/scene/me',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The persona the scene sees me as (one of my own personas, or null)',
        params: ChatIdParamsSchema,
        body: SceneMeBodySchema,
        response: { 200: SceneSchema, ...errors },
      },
    },
    async (request) => scenes.setPersona(currentUserId(request), request.params.id, request.body.persona_id),
  );
}

function characterRoutes(app: App, scenes: ScenesService): void {
  app.post(
    '/api/chat/:id/scene/characters',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Add a character (owner); a one-to-one chat becomes a group and keeps its history',
        params: ChatIdParamsSchema,
        body: SceneAddCharacterBodySchema,
        response: { 200: SceneSchema, ...errors },
      },
    },
    async (request) => scenes.addCharacter(currentUserId(request), request.params.id, request.body.bot_id),
  );
  app.delete(
    '/api/chat/:id/scene/characters/:bot_id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Remove a character from the scene (owner); her messages stay',
        params: SceneCharacterParamsSchema,
        response: { 200: SceneSchema, ...errors },
      },
    },
    async (request) => scenes.removeCharacter(currentUserId(request), request.params.id, request.params.bot_id),
  );
  app.patch(
    '/api/chat/:id/scene/characters/:bot_id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mute or unmute a character in the scene (anyone in it)',
        params: SceneCharacterParamsSchema,
        body: SceneCharacterUpdateBodySchema,
        response: { 200: SceneSchema, ...errors },
      },
    },
    async (request) =>
      scenes.mute(currentUserId(request), request.params.id, request.params.bot_id, request.body.muted),
  );
}

function turnRoutes(app: App, scenes: ScenesService, replies: RepliesService): void {
  app.post(
    '/api/chat/:id/scene/speak',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Make this character speak now; her reply streams back (as a send’s stream)',
        params: ChatIdParamsSchema,
        body: SceneSpeakBodySchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const events = await replies.speak(
        currentUserId(request),
        request.params.id,
        request.body.bot_id,
        request.locale,
      );
      await pipeEvents(request, reply, events);
    },
  );
  app.post(
    '/api/chat/:id/scene/continue',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The characters talk among themselves for up to `turns` turns (stop: POST /api/chat/{id}/stop)',
        params: ChatIdParamsSchema,
        body: SceneContinueBodySchema,
        response: { 200: SceneContinueSchema, ...errors },
      },
    },
    async (request) =>
      replies.continueScene(
        currentUserId(request),
        request.params.id,
        request.body.turns ?? SCENE_CONTINUE_DEFAULT,
        request.locale,
      ),
  );
  app.post(
    '/api/chat/:id/scene/typing',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'I am typing: the others see it for a few seconds',
        params: ChatIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await scenes.typing(currentUserId(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

function inviteRoutes(app: App, scenes: ScenesService): void {
  app.post(
    '/api/chat/:id/scene/invites',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A new invite link (owner): expiring, revocable, with a member limit',
        params: ChatIdParamsSchema,
        body: SceneInviteCreateBodySchema,
        response: { 201: SceneInviteSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return scenes.createInvite(currentUserId(request), request.params.id, request.body);
    },
  );
  app.get(
    '/api/chat/:id/scene/invites',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The scene’s invite links (owner)',
        params: ChatIdParamsSchema,
        response: { 200: SceneInviteListSchema, ...errors },
      },
    },
    async (request) => scenes.listInvites(currentUserId(request), request.params.id),
  );
  app.delete(
    '/api/chat/:id/scene/invites/:invite_id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Close an invite link (owner); people who joined stay',
        params: SceneInviteParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await scenes.revokeInvite(currentUserId(request), request.params.id, request.params.invite_id);
      return reply.code(204).send(null);
    },
  );
}

/** An invite link from the invited person's side: what it leads to, and joining. */
function joinRoutes(app: App, scenes: ScenesService): void {
  app.get(
    '/api/scene-invites/:code',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'What an invite link leads to, before joining',
        params: SceneInviteCodeParamsSchema,
        response: { 200: SceneInvitePreviewSchema, ...errors },
      },
    },
    async (request) => scenes.preview(currentUserId(request), request.params.code),
  );
  app.post(
    '/api/scene-invites/:code/join',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'Join a scene with a persona of one’s own, after the 18+ confirmation',
        params: SceneInviteCodeParamsSchema,
        body: SceneJoinBodySchema,
        response: { 200: SceneSchema, 201: SceneSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { scene, joined } = await scenes.join(
        currentUserId(request),
        request.params.code,
        request.body,
        request.locale,
      );
      reply.code(joined ? 201 : 200);
      return scene;
    },
  );
}

function peopleRoutes(app: App, scenes: ScenesService, events: SceneEvents): void {
  app.delete(
    '/api/chat/:id/scene/people/:user_id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The owner removes someone (`block=1`: for good); one’s own id: leave the scene',
        params: ScenePersonParamsSchema,
        querystring: ScenePersonRemoveQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await scenes.removePerson(
        currentUserId(request),
        request.params.id,
        request.params.user_id,
        request.query.block === '1',
      );
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/chat/:id/scene/events',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The scene’s live events from every replica (server-sent events)',
        description:
          'Answers `text/event-stream`: `message` {message}, `typing` {user_id, name}, `presence` {online}, `scene`, `removed` (docs/groups.md).',
        params: ChatIdParamsSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const userId = currentUserId(request);
      const { chat } = await scenes.access(userId, request.params.id);
      await pipeSceneEvents(request, reply, events, {
        chatId: chat.id,
        userId,
        people: () => scenes.peopleOf(chat),
      });
    },
  );
}
