import { useState } from 'react';
import type { AdminTakedownDetail, AdminTakedownItem, Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatDateTime, formatNumber } from '../../../../lib/format';
import { mediaSrc } from '../../../../lib/media';
import { Skeleton } from '../../../../components/ui/page';
import { useTakedown } from '../../api/get-takedown';
import { useRemoveTakedown } from '../../api/remove-takedown';
import { useRejectTakedown } from '../../api/reject-takedown';
import { ConfirmAction } from '../../components/confirm-action';
import { DetailAction, DetailPage } from '../../components/detail-page';
import { actionPanelClass, NoteField } from '../../components/note-field';
import { TakedownClock } from './clock';

function Picture({ url, alt }: { url: string; alt: string }) {
  return (
    <img
      src={mediaSrc(url)}
      alt={alt}
      loading="lazy"
      className="h-28 w-28 rounded-xl border border-white/10 bg-black/30 object-cover"
    />
  );
}

/** What one item is, as stored now. */
function ItemView({ item }: { item: AdminTakedownItem }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (!item.found)
    return (
      <p className="text-sm text-muted">
        {item.kind === 'foreign' || item.kind === 'invalid'
          ? t(`admin.takedown.kind_${item.kind}`)
          : t('admin.takedown.not_found')}
      </p>
    );
  if (item.character)
    return (
      <div className="flex flex-col gap-2">
        <p className="font-medium">
          {item.character.name} <span className="text-sm text-muted">/{item.character.slug}</span>
        </p>
        {item.character.author_email && (
          <p className="text-xs text-muted">{t('admin.takedown.author', { email: item.character.author_email })}</p>
        )}
        <p className="line-clamp-3 text-sm text-muted">{item.character.description}</p>
        {item.character.pictures.length > 0 && (
          <div className="flex flex-wrap gap-2">
            {item.character.pictures.map((p) => (
              <Picture key={p.key} url={p.url} alt={item.character!.name} />
            ))}
          </div>
        )}
      </div>
    );
  if (item.media)
    return (
      <div className="flex flex-col gap-2">
        <Picture url={item.media.url} alt={item.media.key} />
        <p className="text-xs break-all text-muted">{item.media.key}</p>
        <p className="text-xs text-muted">{t(`admin.takedown.owner_${item.media.owner}`)}</p>
      </div>
    );
  if (item.message)
    return (
      <div className="flex flex-col gap-2">
        <p className="text-xs text-muted">
          {t('admin.takedown.message_in_chat', {
            character: item.message.character.name,
            author: item.message.author.email,
          })}{' '}
          · {formatDateTime(item.message.created_at, locale)}
        </p>
        <p className="rounded-xl bg-white/5 p-3 text-sm whitespace-pre-wrap">{item.message.text}</p>
        {item.message.picture_url && <Picture url={item.message.picture_url} alt="" />}
        {item.message.has_audio && <p className="text-xs text-muted">{t('admin.takedown.has_audio')}</p>}
      </div>
    );
  return null;
}

function Outcome({ detail }: { detail: AdminTakedownDetail }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const removed = detail.removed as {
    characters?: string[];
    messages?: string[];
    media?: string[];
    failed_files?: string[];
  } | null;
  return (
    <div
      className="flex flex-col gap-2 rounded-2xl border border-white/10 bg-surface p-4"
      data-testid="takedown-outcome"
    >
      <p className="font-medium">
        {t(`admin.takedown.status_${detail.status}`)}
        {detail.handled_at && ` · ${formatDateTime(detail.handled_at, locale)}`}
      </p>
      {removed && (
        <p className="text-sm text-muted">
          {t('admin.takedown.removed_summary', {
            characters: formatNumber(removed.characters?.length ?? 0, locale),
            messages: formatNumber(removed.messages?.length ?? 0, locale),
            files: formatNumber(removed.media?.length ?? 0, locale),
          })}
        </p>
      )}
      {detail.resolution && <p className="text-sm whitespace-pre-wrap">{detail.resolution}</p>}
      {removed?.failed_files && removed.failed_files.length > 0 && (
        <div className="rounded-xl border border-red-400/40 bg-red-950/40 p-3 text-sm text-red-100">
          <p>{t('admin.takedown.failed_files')}</p>
          <ul className="mt-1 list-disc pl-5 break-all">
            {removed.failed_files.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** One request: its items read against what is stored, removal of the chosen ones, or rejection. */
export function TakedownDetailView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { data, isPending, isError } = useTakedown(id);
  const remove = useRemoveTakedown(id);
  const reject = useRejectTakedown(id);
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [failed, setFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);

  if (isPending) return <Skeleton className="h-64" />;
  if (isError || !data) return <p className="text-red-300">{t('admin.takedown.error')}</p>;

  const open = data.status === 'open';
  const removable = data.items.filter((i) => i.found);
  const selected = chosen ?? new Set(removable.map((i) => i.input));
  const toggle = (input: string) => {
    const next = new Set(selected);
    if (next.has(input)) next.delete(input);
    else next.add(input);
    setChosen(next);
  };

  const onReject = async () => {
    if (!reason.trim()) return;
    setFailed(false);
    try {
      await reject.mutateAsync({ reason });
    } catch {
      setFailed(true);
    }
  };

  return (
    <DetailPage
      testId="admin-takedown-detail"
      back="/admin/takedown"
      backLabel={t('admin.takedown.back')}
      error={failed ? t('admin.takedown.error') : null}
    >
      <div className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-surface p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="font-mono text-xl font-semibold">{data.reference}</h2>
          <TakedownClock status={data.status} dueAt={data.due_at} overdue={data.overdue} />
          {!open && <span className="text-sm text-muted">{t(`admin.takedown.status_${data.status}`)}</span>}
        </div>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-muted">{t('admin.takedown.reporter')}</dt>
          <dd className="break-all">{data.email}</dd>
          <dt className="text-muted">{t('admin.takedown.signature')}</dt>
          <dd>{data.signature}</dd>
          <dt className="text-muted">{t('admin.takedown.received')}</dt>
          <dd>{formatDateTime(data.created_at, locale)}</dd>
          <dt className="text-muted">{t('admin.takedown.due')}</dt>
          <dd>{formatDateTime(data.due_at, locale)}</dd>
        </dl>
        <p className="rounded-xl bg-white/5 p-3 text-sm whitespace-pre-wrap">{data.description}</p>
      </div>

      <h3 className="text-lg font-semibold">{t('admin.takedown.items_title')}</h3>
      <ul className="flex flex-col gap-3">
        {data.items.map((item) => (
          <li
            key={item.input}
            className="flex gap-3 rounded-2xl border border-white/10 bg-surface p-4"
            data-testid="takedown-item"
          >
            {open && (
              <input
                type="checkbox"
                aria-label={t('admin.takedown.choose')}
                disabled={!item.found}
                checked={item.found && selected.has(item.input)}
                onChange={() => toggle(item.input)}
                className="mt-1 h-4 w-4 shrink-0"
              />
            )}
            <div className="flex min-w-0 flex-1 flex-col gap-2">
              <p className="text-xs font-semibold text-muted uppercase">{t(`admin.takedown.kind_${item.kind}`)}</p>
              <p className="font-mono text-xs break-all">{item.input}</p>
              <ItemView item={item} />
            </div>
          </li>
        ))}
      </ul>

      {!open && <Outcome detail={data} />}

      {open && (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className={actionPanelClass}>
            <NoteField id="takedown-note" label={t('admin.takedown.note_label')} value={note} onChange={setNote} />
            <DetailAction
              kind="danger"
              onClick={() => setConfirming(true)}
              disabled={remove.isPending || selected.size === 0}
              testId="takedown-remove"
            >
              {t('admin.takedown.remove', { n: formatNumber(selected.size, locale) })}
            </DetailAction>
          </div>
          <div className={actionPanelClass}>
            <NoteField
              id="takedown-reason"
              label={t('admin.takedown.reject_reason')}
              value={reason}
              onChange={setReason}
            />
            <DetailAction
              kind="secondary"
              onClick={onReject}
              disabled={reject.isPending || !reason.trim()}
              testId="takedown-reject"
            >
              {t('admin.takedown.reject')}
            </DetailAction>
          </div>
        </div>
      )}
      <ConfirmAction
        open={confirming}
        title={t('admin.takedown.remove_confirm')}
        confirmLabel={t('admin.takedown.remove', { n: formatNumber(selected.size, locale) })}
        danger
        reason="none"
        testId="takedown-remove-confirm"
        onConfirm={() => remove.mutateAsync({ items: [...selected], note })}
        onClose={() => setConfirming(false)}
      />
    </DetailPage>
  );
}
