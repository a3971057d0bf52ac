import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BotList,
  Chat,
  GroupCreateBody,
  Scene,
  SceneContinue,
  SceneInvite,
  SceneInviteCreateBody,
  SceneInvitePreview,
  SceneUpdateBody,
  StreamEvent,
} from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { openEventStream } from '../stream-client';
import { chatWritten, useApiWrite } from './create-chat';
import { chatKeys } from './keys';

/** Group scenes (docs/groups.md): the calls under `/api/chat/{id}/scene` and `/api/scene-invites/{code}`. */
const scenePath = (chatId: string, rest = '') => `/api/chat/${encodeURIComponent(chatId)}/scene${rest}`;

/** POST /api/chat/group: a new group chat with 2–8 characters. */
export const createGroup = (body: GroupCreateBody) => request<Chat>('/api/chat/group', { method: 'POST', body });

/** A scene's reads: no retry (a 404 or 410 is the answer) and no read again on focus. */
const readOnce = { retry: false, refetchOnWindowFocus: false } as const;

export const getScene = (chatId: string) => request<Scene>(scenePath(chatId));

/** The scene of a group chat; read again on every `scene` event. */
export function useScene(chatId: string, enabled = true) {
  return useQuery({
    queryKey: chatKeys.scene(chatId),
    queryFn: () => getScene(chatId),
    enabled,
    ...readOnce,
  });
}

/** Starts a group chat: cached by its id (the page opens it at once); the lists load again. */
export const useCreateGroup = (viewer: string) => useApiWrite(createGroup, chatWritten(viewer));

/**
 * A change to the scene (setting, a character added, removed or muted, my persona): the
 * answer is the scene; the chat (its faces in the header and the list) is read again.
 */
function useSceneChange<Args>(chatId: string, call: (args: Args) => Promise<Scene>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (scene) => {
      client.setQueryData(chatKeys.scene(chatId), scene);
      void client.invalidateQueries({ queryKey: chatKeys.allDetails });
      void client.invalidateQueries({ queryKey: chatKeys.allLists });
    },
  });
}

export const useUpdateScene = (chatId: string) =>
  useSceneChange(chatId, (body: SceneUpdateBody) => request<Scene>(scenePath(chatId), { method: 'PATCH', body }));

/** "Add a character": a one-to-one chat becomes a group, its history stays. */
export const useAddCharacter = (chatId: string) =>
  useSceneChange(chatId, (botId: string) =>
    request<Scene>(scenePath(chatId, '/characters'), { method: 'POST', body: { bot_id: botId } }),
  );

export const useRemoveCharacter = (chatId: string) =>
  useSceneChange(chatId, (botId: string) =>
    request<Scene>(scenePath(chatId, `/characters/${encodeURIComponent(botId)}`), { method: 'DELETE' }),
  );

export const useMuteCharacter = (chatId: string) =>
  useSceneChange(chatId, ({ botId, muted }: { botId: string; muted: boolean }) =>
    request<Scene>(scenePath(chatId, `/characters/${encodeURIComponent(botId)}`), {
      method: 'PATCH',
      body: { muted },
    }),
  );

/** The persona the scene sees me as. */
export const useScenePersona = (chatId: string) =>
  useSceneChange(chatId, (personaId: string | null) =>
    request<Scene>(scenePath(chatId, '/me'), { method: 'PATCH', body: { persona_id: personaId } }),
  );

/** POST …/scene/speak: this character answers now; her reply streams back as a send's does. */
export const speak = (chatId: string, botId: string, onEvent: (event: StreamEvent) => void, signal?: AbortSignal) =>
  openEventStream(scenePath(chatId, '/speak'), { body: { bot_id: botId }, signal }, onEvent);

/** POST …/scene/continue: the characters talk among themselves; the first reply is followed by its id. */
export const continueScene = (chatId: string, turns?: number) =>
  request<SceneContinue>(scenePath(chatId, '/continue'), { method: 'POST', body: turns ? { turns } : {} });

/** POST …/scene/typing: "I am typing" (the composer sends one at most every 3 s). */
export const sendTyping = (chatId: string) => request<void>(scenePath(chatId, '/typing'), { method: 'POST' });

/** The scene's invite links (owner). */
export function useSceneInvites(chatId: string, enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.sceneInvites(chatId),
    queryFn: () => request<{ results: SceneInvite[] }>(scenePath(chatId, '/invites')).then((r) => r.results),
    enabled,
    retry: false,
  });
}

export function useCreateInvite(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SceneInviteCreateBody) =>
      request<SceneInvite>(scenePath(chatId, '/invites'), { method: 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: chatKeys.sceneInvites(chatId) }),
  });
}

export function useRevokeInvite(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) =>
      request<void>(scenePath(chatId, `/invites/${encodeURIComponent(inviteId)}`), { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: chatKeys.sceneInvites(chatId) }),
  });
}

/** The owner removes someone (`block`: never again through any link); one's own id: leave. */
export function useRemovePerson(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block = false }: { userId: string; block?: boolean }) =>
      request<void>(scenePath(chatId, `/people/${encodeURIComponent(userId)}`), {
        method: 'DELETE',
        query: block ? { block: '1' } : {},
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: chatKeys.scene(chatId) });
      void client.invalidateQueries({ queryKey: chatKeys.allLists });
    },
  });
}

const invitePath = (code: string, rest = '') => `/api/scene-invites/${encodeURIComponent(code)}${rest}`;

/** What an invite link shows before joining (404, 410 expired or revoked, 403 blocked). */
export function useInvitePreview(code: string, enabled = true) {
  return useQuery({
    queryKey: chatKeys.invitePreview(code),
    queryFn: () => request<SceneInvitePreview>(invitePath(code)),
    enabled,
    ...readOnce,
  });
}

/** Joins the scene with a persona of one's own, after the 18+ confirmation. */
export function useJoinScene(code: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (personaId: string | null) =>
      request<Scene>(invitePath(code, '/join'), {
        method: 'POST',
        body: { persona_id: personaId, adult_confirmed: true },
      }),
    onSuccess: (scene) => {
      client.setQueryData(chatKeys.scene(scene.chat_id), scene);
      void client.invalidateQueries({ queryKey: chatKeys.allLists });
    },
  });
}

/** A character one can put in a scene. */
export interface PickableCharacter {
  id: string;
  slug: string;
  name: string;
  avatar_url: string | null;
}

/**
 * Characters to pick for a scene: the catalogue searched by name (`/api/bots/available?q=`),
 * or its first page without a search.
 */
export function useCharacterSearch(q: string, enabled: boolean) {
  const search = q.trim();
  return useQuery({
    queryKey: ['bots', 'available', 'scene-pick', search.toLowerCase()],
    queryFn: () =>
      request<BotList>('/api/bots/available', { query: { size: 30, ...(search ? { q: search } : {}) } }).then(
        (list): PickableCharacter[] =>
          list.results.map(({ id, slug, name, avatar_url }) => ({ id, slug, name, avatar_url })),
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
}
