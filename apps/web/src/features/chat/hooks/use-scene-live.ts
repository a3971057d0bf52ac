import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SCENE_TYPING_TTL_MS, type Message, type SceneEvent } from '@reverie/shared';
import { ApiRequestError } from '../../../lib/api-client';
import { chatKeys } from '../api/keys';
import { sendTyping } from '../api/scene';
import { readSceneEvents } from '../scene-events';

/** What the scene's live stream does to the open conversation. */
export interface SceneLiveTarget {
  upsert: (message: Message) => void;
  follow: (messageId: string) => void;
}

export interface SceneTyping {
  userId: string;
  name: string;
  until: number;
}

/** Waits before a dropped stream is opened again: 1 s, 2 s, 4 s… up to 15 s. */
const retryDelay = (attempt: number) => Math.min(15_000, 1000 * 2 ** attempt);
/** The composer says "typing" at most this often. */
const TYPING_EVERY_MS = 3000;

/**
 * A group chat's live side (docs/groups.md "Scene events"): the stream of messages others send
 * and characters' replies (followed as they are written), who is typing, who is here, scene
 * changes, and being removed. A dropped stream is opened again, and the newest history is read
 * again then (what was said meanwhile). Off when `enabled` is false (a one-to-one chat).
 */
export function useSceneLive(chatId: string, enabled: boolean, target: SceneLiveTarget) {
  const client = useQueryClient();
  const [typing, setTyping] = useState<SceneTyping[]>([]);
  const [online, setOnline] = useState<string[] | null>(null);
  const [removed, setRemoved] = useState(false);
  const targetRef = useRef(target);
  targetRef.current = target;

  const onEvent = useCallback(
    (event: SceneEvent) => {
      switch (event.type) {
        case 'message': {
          const { message } = event;
          targetRef.current.upsert(message);
          if (message.role === 'bot' && message.state === 'streaming') targetRef.current.follow(message.id);
          const speaker = message.speaker;
          if (speaker?.kind === 'person') setTyping((all) => all.filter((entry) => entry.userId !== speaker.user_id));
          break;
        }
        case 'typing':
          setTyping((all) => [
            ...all.filter((entry) => entry.userId !== event.user_id),
            { userId: event.user_id, name: event.name, until: Date.now() + SCENE_TYPING_TTL_MS },
          ]);
          break;
        case 'presence':
          setOnline(event.online);
          break;
        case 'scene':
          void client.invalidateQueries({ queryKey: chatKeys.scene(chatId) });
          void client.invalidateQueries({ queryKey: chatKeys.allDetails });
          break;
        case 'removed':
          setRemoved(true);
          break;
      }
    },
    [chatId, client],
  );

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let stopped = false;
    void (async () => {
      for (let attempt = 0; !controller.signal.aborted && !stopped;) {
        const opened = Date.now();
        try {
          await readSceneEvents(
            chatId,
            (event) => {
              if (event.type === 'removed') stopped = true;
              onEvent(event);
            },
            controller.signal,
          );
        } catch (failure) {
          // Not in the scene (removed elsewhere, the chat deleted): nothing to reopen.
          if (failure instanceof ApiRequestError && (failure.status === 404 || failure.status === 403)) {
            setRemoved(true);
            return;
          }
        }
        if (controller.signal.aborted || stopped) return;
        attempt = Date.now() - opened > 30_000 ? 0 : attempt + 1;
        await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
        if (controller.signal.aborted) return;
        // What was said while the stream was down.
        void client.invalidateQueries({ queryKey: chatKeys.history(chatId) });
        void client.invalidateQueries({ queryKey: chatKeys.scene(chatId) });
      }
    })();
    return () => controller.abort();
  }, [chatId, enabled, onEvent, client]);

  // A typing mark ends unless renewed.
  useEffect(() => {
    if (typing.length === 0) return;
    const next = Math.min(...typing.map((entry) => entry.until)) - Date.now();
    const timer = setTimeout(
      () => setTyping((all) => all.filter((entry) => entry.until > Date.now())),
      Math.max(next, 50),
    );
    return () => clearTimeout(timer);
  }, [typing]);

  const lastTyping = useRef(0);
  /** Tells the others "I am typing" (at most every 3 s). */
  const signalTyping = useCallback(() => {
    if (!enabled || Date.now() - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = Date.now();
    void sendTyping(chatId).catch(() => undefined);
  }, [chatId, enabled]);

  return { typing, online, removed, signalTyping };
}
