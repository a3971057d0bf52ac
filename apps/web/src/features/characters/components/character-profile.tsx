import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, BadgeCheck, Download, Info, MessageCircle } from 'lucide-react';
import type { BotDetail } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { Skeleton } from '../../../components/ui/page';
import { useModal } from '../../../app/modals';
import { useSession } from '../../auth/session';
import { showAlert } from '../../../components/ui/alerts';

/** A character's page until the chat lands: portrait, facts, greeting bubble and gallery. */
export function CharacterProfile({ bot }: { bot: BotDetail }) {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const modal = useModal();
  const navigate = useNavigate();
  const facts = [
    bot.occupation.length ? { label: t('characters.occupation'), value: bot.occupation.join(', ') } : null,
    bot.personality.length ? { label: t('characters.personality'), value: bot.personality.join(', ') } : null,
  ].filter((f): f is { label: string; value: string } => Boolean(f));

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-4 lg:py-8" data-testid="character-page">
      <button
        type="button"
        onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}
        className="flex w-fit items-center gap-1.5 rounded-full px-2 py-1 text-sm text-muted hover:bg-white/5 hover:text-fg"
      >
        <Icon icon={ArrowLeft} size="md" />
        {t('characters.back')}
      </button>
      <div className="grid gap-6 md:grid-cols-[minmax(0,20rem)_1fr]">
        <div className="mx-auto w-full max-w-[15rem] overflow-hidden rounded-3xl border border-white/10 bg-surface md:max-w-none">
          {bot.avatar_url && (
            <img
              src={bot.avatar_url}
              alt={t('characters.avatar_alt', { name: bot.name })}
              className="block aspect-square w-full object-cover"
            />
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <div>
            <h1 className="flex flex-wrap items-center gap-2 text-3xl font-bold tracking-tight">
              {bot.name}
              <span className="text-xl font-normal text-muted">{t('characters.age_years', { age: bot.age })}</span>
              {bot.is_official && (
                <Icon icon={BadgeCheck} size="lg" className="text-primary" aria-label={t('characters.official')} />
              )}
            </h1>
            <ul className="mt-2 flex flex-wrap gap-1.5">
              {bot.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-white/5 px-2.5 py-0.5 text-xs text-muted capitalize">
                  {tag}
                </li>
              ))}
            </ul>
          </div>
          <p className="text-fg/90">{bot.description}</p>
          {facts.length > 0 && (
            <dl className="grid gap-2 sm:grid-cols-2">
              {facts.map((f) => (
                <div key={f.label} className="rounded-2xl bg-surface px-4 py-2">
                  <dt className="text-xs text-muted">{f.label}</dt>
                  <dd className="text-sm capitalize">{f.value}</dd>
                </div>
              ))}
            </dl>
          )}
          {bot.scenario && (
            <div>
              <h2 className="text-sm font-semibold text-muted">{t('characters.scenario')}</h2>
              <p className="mt-1 text-sm">{bot.scenario}</p>
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() =>
                isAuthorized
                  ? showAlert(t('characters.chat_soon'), { type: 'info' })
                  : modal.open('login', { next: `/${bot.slug}` })
              }
              className="flex items-center gap-2 rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
            >
              <Icon icon={MessageCircle} size="md" />
              {t('characters.start_chat')}
            </button>
            <a
              href={`/api/bot/${bot.slug}/card.png`}
              download
              className="flex items-center gap-2 rounded-full border border-white/15 px-4 py-3 text-sm text-muted hover:text-fg"
            >
              <Icon icon={Download} size="md" />
              {t('characters.export_card')}
            </a>
          </div>
        </div>
      </div>

      {bot.greeting && (
        <section
          aria-label={t('characters.greeting_label')}
          className="rounded-3xl border border-white/10 bg-surface/60 p-4"
        >
          <p className="mb-3 flex items-center gap-1.5 text-xs text-muted">
            <Icon icon={Info} size="sm" />
            {t('characters.ai_notice', { name: bot.name })}
          </p>
          <div className="flex items-end gap-2">
            {bot.avatar_url && (
              <img src={bot.avatar_url} alt="" className="h-8 w-8 shrink-0 rounded-full object-cover" />
            )}
            <p
              data-testid="greeting"
              className="max-w-[85%] rounded-2xl rounded-bl-sm bg-bg px-4 py-3 text-sm whitespace-pre-line"
            >
              {bot.greeting}
            </p>
          </div>
        </section>
      )}

      {bot.gallery.length > 0 && (
        <section>
          <h2 className="mb-3 text-lg font-semibold">{t('characters.gallery')}</h2>
          <ul className="grid grid-cols-3 gap-2 sm:gap-3">
            {bot.gallery.map((url, index) => (
              <li key={url} className="overflow-hidden rounded-2xl border border-white/10 bg-surface">
                <img
                  src={url}
                  alt={t('characters.picture_alt', { index: index + 1, name: bot.name })}
                  loading="lazy"
                  className="block aspect-square w-full object-cover"
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

export function CharacterProfileSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-12 md:grid-cols-[20rem_1fr]" aria-busy="true">
      <Skeleton className="aspect-square w-full" />
      <div className="flex flex-col gap-3">
        <Skeleton className="h-9 w-1/2" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-12 w-40 rounded-full" />
      </div>
    </div>
  );
}

export function CharacterNotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-md px-4 py-20 text-center">
      <p className="text-lg">{t('characters.not_found')}</p>
      <Link to="/" className="mt-4 inline-block rounded-full bg-primary px-5 py-2 font-semibold text-on-primary">
        {t('errors.go_home')}
      </Link>
    </div>
  );
}
