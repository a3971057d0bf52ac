import '../texts';
import { useState } from 'react';
import { Ban, Copy, Crown, LogOut, UserMinus, UserRound } from 'lucide-react';
import {
  SCENE_INVITE_HOURS_DEFAULT,
  SCENE_PEOPLE_MAX,
  type Scene,
  type SceneInvite,
  type ScenePerson,
} from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { IconButton, IconTextButton } from '../../../components/ui/icon-button';
import { outlineButtonClass } from '../../../components/ui/dialog-actions';
import { Modal } from '../../../components/ui/modal';
import { formatRelative } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useCreateInvite, useRemovePerson, useRevokeInvite, useSceneInvites } from '../api/scene';
import { sceneErrorText, sceneField } from './scene-dialogs';

const EXPIRY_HOURS = [1, 24, 72, 168] as const;

function PersonRow({
  person,
  online,
  me,
  owner,
  onRemove,
}: {
  person: ScenePerson;
  online: boolean;
  me: boolean;
  owner: boolean;
  onRemove: (block: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <li
      className="flex items-center gap-3 rounded-xl border border-white/10 px-3 py-2"
      data-testid="scene-person"
      data-online={online || undefined}
    >
      <span className="relative shrink-0">
        {person.avatar_url ? (
          <img src={person.avatar_url} alt="" className="h-10 w-10 rounded-full object-cover" />
        ) : (
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-white/5 text-muted">
            <Icon icon={UserRound} size="md" />
          </span>
        )}
        <span
          className={`absolute right-0 bottom-0 h-3 w-3 rounded-full border-2 border-surface ${online ? 'bg-emerald-400' : 'bg-white/20'}`}
          aria-hidden="true"
        />
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="flex items-center gap-1.5 truncate font-medium">
          {person.name}
          {me && <span className="text-xs font-normal text-muted">{t('scenes.you')}</span>}
          {person.role === 'owner' && (
            <Icon icon={Crown} size="sm" className="text-amber-300" aria-label={t('scenes.owner')} role="img" />
          )}
        </span>
        <span className="text-xs text-muted">{online ? t('scenes.here_now') : t('scenes.away')}</span>
      </span>
      {owner && !me && (
        <>
          <IconButton
            icon={UserMinus}
            label={t('scenes.remove_person', { name: person.name })}
            onClick={() => onRemove(false)}
            testId="scene-remove-person"
          />
          <IconButton
            icon={Ban}
            label={t('scenes.block_person', { name: person.name })}
            onClick={() => onRemove(true)}
            testId="scene-block-person"
            look="rowDanger"
          />
        </>
      )}
    </li>
  );
}

function InviteRow({ invite, onRevoke }: { invite: SceneInvite; onRevoke: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invite.url);
      showAlert(t('scenes.invite_copied'));
    } catch {
      showAlert(t('chat.copy_failed'), { type: 'error' });
    }
  };
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-white/10 px-3 py-2" data-testid="scene-invite">
      <input
        readOnly
        value={invite.url}
        aria-label={t('scenes.invite_link')}
        onFocus={(event) => event.target.select()}
        data-testid="scene-invite-url"
        className={`w-full truncate ${sceneField}`}
      />
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
        <span>
          {t('scenes.invite_expires', { when: formatRelative(invite.expires_at, currentLocale(), Date.now()) })}
        </span>
        <span>·</span>
        <span>{t('scenes.invite_joined', { count: invite.joined, max: invite.max_members })}</span>
        <span className="flex-1" />
        <button
          type="button"
          onClick={() => void copy()}
          data-testid="scene-invite-copy"
          className="flex items-center gap-1 rounded-full border border-white/15 px-3 py-1 text-fg hover:bg-white/5"
        >
          <Icon icon={Copy} size="sm" />
          {t('scenes.invite_copy')}
        </button>
        <button
          type="button"
          onClick={onRevoke}
          data-testid="scene-invite-revoke"
          className="rounded-full px-3 py-1 hover:text-red-300"
        >
          {t('scenes.invite_revoke')}
        </button>
      </div>
    </li>
  );
}

/** The owner's invite links: make one (expiry, member limit), copy it, close it. */
function Invites({ chatId }: { chatId: string }) {
  const { t } = useTranslation();
  const invites = useSceneInvites(chatId, true);
  const create = useCreateInvite(chatId);
  const revoke = useRevokeInvite(chatId);
  const [hours, setHours] = useState<number>(SCENE_INVITE_HOURS_DEFAULT);
  const [max, setMax] = useState<number>(SCENE_PEOPLE_MAX);
  const live = (invites.data ?? []).filter((invite) => !invite.revoked && Date.parse(invite.expires_at) > Date.now());
  const make = async () => {
    try {
      const invite = await create.mutateAsync({ expires_in_hours: hours, max_members: max });
      await navigator.clipboard?.writeText(invite.url).then(
        () => showAlert(t('scenes.invite_created_copied')),
        () => showAlert(t('scenes.invite_created')),
      );
    } catch (failure) {
      showAlert(sceneErrorText(t, failure), { type: 'error' });
    }
  };
  return (
    <section className="flex flex-col gap-3" aria-labelledby="scene-invites-title">
      <h3 id="scene-invites-title" className="font-semibold">
        {t('scenes.invites_title')}
      </h3>
      <p className="text-xs text-muted">{t('scenes.invites_text')}</p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-xs">
          <span>{t('scenes.invite_expiry')}</span>
          <select
            value={hours}
            onChange={(event) => setHours(Number(event.target.value))}
            data-testid="scene-invite-expiry"
            className={sceneField}
          >
            {EXPIRY_HOURS.map((h) => (
              <option key={h} value={h}>
                {h < 24 ? t('scenes.hours', { count: h }) : t('scenes.days', { count: h / 24 })}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs">
          <span>{t('scenes.invite_max')}</span>
          <select
            value={max}
            onChange={(event) => setMax(Number(event.target.value))}
            data-testid="scene-invite-max"
            className={sceneField}
          >
            {Array.from({ length: SCENE_PEOPLE_MAX - 1 }, (_, i) => i + 2).map((n) => (
              <option key={n} value={n}>
                {t('scenes.people_count', { count: n })}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => void make()}
          disabled={create.isPending}
          data-testid="scene-invite-create"
          className="rounded-full bg-primary px-4 py-2 text-sm font-semibold text-on-primary disabled:opacity-50"
        >
          {t('scenes.invite_create')}
        </button>
      </div>
      {live.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="scene-invites">
          {live.map((invite) => (
            <InviteRow
              key={invite.id}
              invite={invite}
              onRevoke={() =>
                revoke.mutate(invite.id, {
                  onSuccess: () => showAlert(t('scenes.invite_revoked')),
                  onError: (failure) => showAlert(sceneErrorText(t, failure), { type: 'error' }),
                })
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * "People": who is in the scene and who is here now; the owner invites (links) and removes or
 * blocks people; a member leaves.
 */
export function ScenePeopleDialog({
  open,
  scene,
  online,
  onClose,
  onLeft,
}: {
  open: boolean;
  scene: Scene;
  /** Who has the scene open now (the live stream's presence); the scene's own marks until it arrives. */
  online: string[] | null;
  onClose: () => void;
  /** I left the scene: the page goes back to the chats. */
  onLeft: () => void;
}) {
  const { t } = useTranslation();
  const owner = scene.me.role === 'owner';
  const remove = useRemovePerson(scene.chat_id);
  const [leaving, setLeaving] = useState(false);
  const isOnline = (person: ScenePerson) => (online ? online.includes(person.user_id) : person.online);
  const removePerson = (person: ScenePerson, block: boolean) =>
    remove.mutate(
      { userId: person.user_id, block },
      {
        onSuccess: () => showAlert(t(block ? 'scenes.blocked_done' : 'scenes.removed_done', { name: person.name })),
        onError: (failure) => showAlert(sceneErrorText(t, failure), { type: 'error' }),
      },
    );
  const leave = () =>
    remove.mutate(
      { userId: scene.me.user_id },
      {
        onSuccess: onLeft,
        onError: (failure) => showAlert(sceneErrorText(t, failure), { type: 'error' }),
      },
    );
  return (
    <Modal open={open} onClose={onClose} title={t('scenes.people_title')} size="lg">
      <div className="flex flex-col gap-5" data-testid="scene-people">
        <ul className="flex flex-col gap-2">
          {scene.people.map((person) => (
            <PersonRow
              key={person.user_id}
              person={person}
              online={isOnline(person)}
              me={person.user_id === scene.me.user_id}
              owner={owner}
              onRemove={(block) => removePerson(person, block)}
            />
          ))}
        </ul>
        {owner ? (
          <Invites chatId={scene.chat_id} />
        ) : leaving ? (
          <div className="flex flex-col gap-2 rounded-xl border border-white/10 p-3 text-sm">
            <p>{t('scenes.leave_confirm')}</p>
            <div className="flex justify-end gap-2">
              <button type="button" onClick={() => setLeaving(false)} className="rounded-full px-4 py-2 text-muted">
                {t('chat.cancel')}
              </button>
              <button
                type="button"
                onClick={leave}
                disabled={remove.isPending}
                data-testid="scene-leave-confirm"
                className="rounded-full bg-red-500/90 px-4 py-2 font-semibold text-white disabled:opacity-50"
              >
                {t('scenes.leave')}
              </button>
            </div>
          </div>
        ) : (
          <IconTextButton
            icon={LogOut}
            onClick={() => setLeaving(true)}
            testId="scene-leave"
            className={outlineButtonClass}
          >
            {t('scenes.leave')}
          </IconTextButton>
        )}
      </div>
    </Modal>
  );
}
