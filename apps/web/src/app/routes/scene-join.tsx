import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Info, MapPin, Users } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { Skeleton } from '../../components/ui/page';
import { FormError } from '../../components/ui/form-error';
import { CheckboxRow } from '../../components/ui/switch-row';
import { ApiRequestError } from '../../lib/api-client';
import { formatRelative } from '../../lib/format';
import { currentLocale, useTranslation } from '../../lib/i18n';
import { useProfile } from '../../lib/profile';
import { useMyPersonas } from '../../features/chat/api/get-personas';
import { useInvitePreview, useJoinScene } from '../../features/chat/api/scene';
import { sceneErrorText, sceneField } from '../../features/chat/components/scene-dialogs';
import { StackedFaces, groupName } from '../../features/chat/components/stacked-faces';
import '../../features/chat/texts';

/** Why an invite link cannot be used, in plain words. */
function inviteProblem(t: (key: string) => string, failure: unknown): string {
  const code = failure instanceof ApiRequestError ? failure.code : null;
  switch (code) {
    case 'invite_expired':
    case 'invite_revoked':
    case 'invite_not_found':
    case 'scene_blocked':
    case 'scene_full':
      return t(`scenes.join.${code}`);
    default:
      return failure instanceof ApiRequestError && failure.status === 404
        ? t('scenes.join.invite_not_found')
        : t('scenes.join.load_failed');
  }
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div
      className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-5 px-5 py-10"
      data-testid="scene-join"
    >
      {children}
    </div>
  );
}

/**
 * `/scene/join/{code}` (docs/groups.md "Web"): what the invite opens (who, where, whose), then
 * the 18+ confirmation, a persona and "Join"; an expired, closed, full or blocked link says so.
 */
export function Component() {
  const { code = '' } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { profile } = useProfile();
  const preview = useInvitePreview(code);
  const join = useJoinScene(code);
  const personas = useMyPersonas(profile?.id ?? 'guest', Boolean(profile));
  const [adult, setAdult] = useState(false);
  const [persona, setPersona] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (preview.isPending)
    return (
      <Frame>
        <Skeleton className="mx-auto h-14 w-14 rounded-full" />
        <Skeleton className="h-6 w-2/3 self-center" />
        <Skeleton className="h-32 w-full" />
      </Frame>
    );
  if (preview.isError)
    return (
      <Frame>
        <p className="text-center text-lg" role="alert" data-testid="scene-join-problem">
          {inviteProblem(t, preview.error)}
        </p>
        <Link to="/chat" className="self-center rounded-full border border-white/15 px-5 py-2 text-sm">
          {t('scenes.join.to_chats')}
        </Link>
      </Frame>
    );

  const scene = preview.data;
  const first = scene.characters[0];
  const open = () => navigate(`/${first?.slug ?? ''}?chat=${encodeURIComponent(scene.chat_id)}`, { replace: true });
  const name =
    scene.title ??
    groupName(
      scene.characters.map((c) => c.name),
      t('scenes.and'),
    );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!adult) return;
    setError(null);
    try {
      await join.mutateAsync(persona);
      open();
    } catch (failure) {
      setError(
        failure instanceof ApiRequestError && failure.code?.startsWith('invite_')
          ? inviteProblem(t, failure)
          : failure instanceof ApiRequestError && failure.code === 'scene_blocked'
            ? t('scenes.join.scene_blocked')
            : sceneErrorText(t, failure),
      );
    }
  };

  return (
    <Frame>
      <div className="flex flex-col items-center gap-2 text-center">
        <StackedFaces faces={scene.characters} max={4} />
        <p className="text-sm text-muted">{t('scenes.join.invited_by', { name: scene.owner_name })}</p>
        <h1 className="text-xl font-semibold" data-testid="scene-join-name">
          {name}
        </h1>
        {scene.place && (
          <p className="flex items-center gap-1 text-sm text-muted">
            <Icon icon={MapPin} size="sm" />
            {scene.place}
          </p>
        )}
        <p className="flex items-center gap-1 text-xs text-muted">
          <Icon icon={Users} size="sm" />
          {t('scenes.join.people', { count: scene.people, max: scene.max_members })}
          <span>·</span>
          {t('scenes.invite_expires', { when: formatRelative(scene.expires_at, currentLocale(), Date.now()) })}
        </p>
      </div>
      {scene.already_member ? (
        <button
          type="button"
          onClick={open}
          data-testid="scene-join-open"
          className="rounded-full bg-primary px-6 py-3 font-semibold text-on-primary"
        >
          {t('scenes.join.open')}
        </button>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
          <p className="flex items-start gap-2 rounded-2xl border border-white/10 bg-white/5 px-4 py-3 text-xs leading-relaxed text-muted">
            <Icon icon={Info} size="sm" className="mt-0.5 shrink-0" />
            <span data-testid="scene-join-disclosure">{t('scenes.join.disclosure')}</span>
          </p>
          <label className="flex flex-col gap-1.5 text-sm">
            <span>{t('scenes.join.persona')}</span>
            <select
              value={persona ?? ''}
              onChange={(event) => setPersona(event.target.value || null)}
              data-testid="scene-join-persona"
              className={sceneField}
            >
              <option value="">{t('scenes.join.persona_none')}</option>
              {(personas.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <CheckboxRow
            checked={adult}
            onChange={setAdult}
            testId="scene-join-adult"
            className="flex items-start gap-2 text-sm"
            boxClassName="mt-0.5 h-4 w-4 accent-[var(--color-primary)]"
          >
            <span>{t('scenes.join.adult')}</span>
          </CheckboxRow>
          <FormError message={error} testId="scene-join-error" />
          <button
            type="submit"
            disabled={!adult || join.isPending}
            data-testid="scene-join-submit"
            className="rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 disabled:opacity-50"
          >
            {t('scenes.join.submit')}
          </button>
        </form>
      )}
    </Frame>
  );
}
