import '../texts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { MapPin } from 'lucide-react';
import type { Chat, Scene } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { RoleplayText } from '../../../components/ui/roleplay-text';
import { useTranslation } from '../../../lib/i18n';
import { useChats } from '../api/get-chats';
import { useScene, useScenePersona } from '../api/scene';
import type { Conversation } from '../hooks/use-conversation';
import { useSceneLive } from '../hooks/use-scene-live';
import { knownCharacters } from './character-picker';
import { CHAT_MENU_ICONS, type ChatMenuItem } from './chat-header';
import { PersonaDialog } from './persona-dialog';
import { ScenePeopleDialog } from './scene-people-dialog';
import { AddCharacterDialog, CallPickerDialog, SceneCharactersDialog, SceneSettingDialog } from './scene-dialogs';
import { StackedFaces, groupName } from './stacked-faces';

export type GroupDialog = 'characters' | 'add' | 'people' | 'setting' | 'call' | 'persona' | null;

/**
 * A group chat's side of the chat view (docs/groups.md): its scene, the live stream (others'
 * messages, characters' replies, typing, presence), the dialogs. For a one-to-one chat only
 * "Add a character" is offered (it makes the chat a group).
 */
export function useGroupChat(chat: Chat, conversation: Conversation, onRemoved: () => void) {
  const { t } = useTranslation();
  const isGroup = Boolean(chat.scene);
  const sceneQuery = useScene(chat.id, isGroup);
  const scene = isGroup ? (sceneQuery.data ?? null) : null;
  const live = useSceneLive(chat.id, isGroup, { upsert: conversation.upsert, follow: conversation.follow });
  const [dialog, setDialog] = useState<GroupDialog>(null);
  const removedRef = useRef(onRemoved);
  removedRef.current = onRemoved;

  useEffect(() => {
    if (!live.removed) return;
    showAlert(t('scenes.removed_you'));
    removedRef.current();
  }, [live.removed, t]);

  const faces = useMemo(
    () =>
      scene
        ? [...scene.characters].sort((a, b) => a.position - b.position)
        : (chat.scene?.characters.map((c, position) => ({ ...c, muted: false, position })) ?? []),
    [scene, chat.scene],
  );
  const name = isGroup
    ? groupName(
        faces.map((f) => f.name),
        t('scenes.and'),
      )
    : chat.bot.name;
  const owner = isGroup ? (scene?.me.role ?? chat.scene?.role) === 'owner' : true;
  const online = live.online ?? scene?.people.filter((p) => p.online).map((p) => p.user_id) ?? [];

  // "Add a character": the owner's in a group, the only item of a one-to-one chat's own.
  const addCharacter: ChatMenuItem = {
    id: 'add-character',
    label: t('scenes.add_character'),
    icon: CHAT_MENU_ICONS.addCharacter,
    onSelect: () => setDialog('add'),
  };
  const menu: ChatMenuItem[] = isGroup
    ? [
        {
          id: 'people',
          label: t('scenes.people_title'),
          icon: CHAT_MENU_ICONS.people,
          onSelect: () => setDialog('people'),
        },
        {
          id: 'setting',
          label: t('scenes.setting_title'),
          icon: CHAT_MENU_ICONS.setting,
          onSelect: () => setDialog('setting'),
        },
        {
          id: 'characters',
          label: t('scenes.characters_title'),
          icon: CHAT_MENU_ICONS.persona,
          onSelect: () => setDialog('characters'),
        },
        ...(owner ? [addCharacter] : []),
        {
          id: 'scene-persona',
          label: t('chat.persona'),
          icon: CHAT_MENU_ICONS.persona,
          onSelect: () => setDialog('persona'),
        },
      ]
    : [addCharacter];

  return { isGroup, scene, live, dialog, setDialog, faces, name, owner, online, menu };
}

export type GroupChat = ReturnType<typeof useGroupChat>;

/** The top of a group chat's history: the faces and the scene's setting. */
export function SceneIntro({ chat, scene }: { chat: Chat; scene: Scene | null }) {
  const { t } = useTranslation();
  const faces = scene?.characters ?? chat.scene?.characters ?? [];
  return (
    <div className="flex flex-col items-center gap-2 pt-4 pb-2 text-center" data-testid="scene-intro">
      <StackedFaces faces={faces} max={4} />
      <p className="text-lg font-semibold">
        {groupName(
          faces.map((f) => f.name),
          t('scenes.and'),
        )}
      </p>
      {scene?.place && (
        <p className="flex items-center gap-1 text-sm text-muted">
          <Icon icon={MapPin} size="sm" />
          {scene.place}
        </p>
      )}
      {scene?.situation && (
        <p className="line-clamp-4 max-w-md text-sm text-muted">
          <RoleplayText text={scene.situation} />
        </p>
      )}
    </div>
  );
}

/** The group chat's dialogs (characters, add one, people, setting, call, persona). */
export function GroupDialogs({
  chat,
  group,
  viewer,
  onLeft,
  onCreatePersona,
}: {
  chat: Chat;
  group: GroupChat;
  viewer: string;
  onLeft: () => void;
  onCreatePersona?: () => void;
}) {
  const { dialog, setDialog, scene } = group;
  const close = () => setDialog(null);
  const chats = useChats(viewer, { q: '' }, dialog === 'add');
  const known = useMemo(() => knownCharacters(chats.data ?? []), [chats.data]);
  const present = scene ? scene.characters.map((c) => c.bot_id) : [chat.bot.id];
  const persona = useScenePersona(chat.id);
  const myPersona = scene?.people.find((p) => p.user_id === scene.me.user_id)?.persona_id ?? null;
  return (
    <>
      <AddCharacterDialog open={dialog === 'add'} chatId={chat.id} known={known} present={present} onClose={close} />
      <CallPickerDialog open={dialog === 'call'} characters={group.faces} onClose={close} />
      {scene && (
        <>
          <SceneCharactersDialog
            open={dialog === 'characters'}
            scene={scene}
            onClose={close}
            onAdd={() => setDialog('add')}
          />
          {dialog === 'setting' && <SceneSettingDialog open scene={scene} onClose={close} />}
          <ScenePeopleDialog
            open={dialog === 'people'}
            scene={scene}
            online={group.live.online}
            onClose={close}
            onLeft={onLeft}
          />
          <PersonaDialog
            chatId={chat.id}
            personaId={myPersona}
            viewer={viewer}
            open={dialog === 'persona'}
            onClose={close}
            onCreatePersona={onCreatePersona}
            save={(id) => persona.mutateAsync(id)}
          />
        </>
      )}
    </>
  );
}
