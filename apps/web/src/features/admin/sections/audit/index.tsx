import '../../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminAuditEntry, Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatDateTime } from '../../../../lib/format';
import { useAdminAudit } from '../../api/get-audit';
import { KeysetFilter, KeysetResults, useKeysetPages } from '../../components/admin-pager';
import type { AdminSectionProps } from '../../sections';
import { jsonDiff } from './json-diff';

function Target({ entry }: { entry: AdminAuditEntry }) {
  if (entry.target_type === 'user')
    return (
      <Link to={`/admin/users/${entry.target_id}`} className="break-all text-primary hover:underline">
        {entry.target_type}:{entry.target_id}
      </Link>
    );
  return (
    <span className="break-all">
      {entry.target_type}:{entry.target_id}
    </span>
  );
}

function Entry({ entry }: { entry: AdminAuditEntry }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const diff = jsonDiff(entry.before, entry.after);
  return (
    <li className="rounded-2xl border border-white/10 bg-surface p-4 text-sm" data-testid="audit-entry">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="rounded-lg bg-white/10 px-2 py-0.5 font-mono text-xs">{entry.action}</span>
        <time className="text-xs text-muted" dateTime={entry.created_at}>
          {formatDateTime(entry.created_at, locale)}
        </time>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted">{t('admin.audit.who')}</dt>
        <dd className="break-all">{entry.actor_email}</dd>
        <dt className="text-muted">{t('admin.audit.target')}</dt>
        <dd>
          <Target entry={entry} />
        </dd>
        {entry.reason && (
          <>
            <dt className="text-muted">{t('admin.audit.reason')}</dt>
            <dd className="break-words whitespace-pre-wrap">{entry.reason}</dd>
          </>
        )}
      </dl>
      {diff.length > 0 && (
        <table className="mt-3 w-full table-fixed text-xs" aria-label={t('admin.audit.changes')}>
          <thead className="text-muted">
            <tr>
              <th className="w-1/4 py-1 text-left font-normal">{t('admin.audit.field')}</th>
              <th className="py-1 text-left font-normal">{t('admin.audit.before')}</th>
              <th className="py-1 text-left font-normal">{t('admin.audit.after')}</th>
            </tr>
          </thead>
          <tbody className="font-mono">
            {diff.map((row) => (
              <tr key={row.key} className={row.changed ? '' : 'text-muted'}>
                <td className="py-0.5 pr-2 break-all">{row.key}</td>
                <td
                  className={`py-0.5 pr-2 break-all ${row.changed ? 'text-red-300 line-through decoration-red-300/40' : ''}`}
                >
                  {row.before}
                </td>
                <td className={`py-0.5 break-all ${row.changed ? 'text-emerald-300' : ''}`}>{row.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

/** Every admin write, newest first, by action or target. */
export function AuditSection(_props: AdminSectionProps) {
  const { t } = useTranslation();
  const [action, setAction] = useState('');
  const [target, setTarget] = useState('');
  const pages = useKeysetPages();
  const [targetType, targetId] = target.includes(':') ? target.split(':', 2) : [target || undefined, undefined];
  const query = useAdminAudit({
    action: action.trim() || undefined,
    target_type: targetType?.trim() || undefined,
    target_id: targetId?.trim() || undefined,
    c: pages.cursor,
  });
  return (
    <div className="flex flex-col gap-4" data-testid="admin-audit">
      <div className="flex flex-col gap-2 sm:flex-row">
        <KeysetFilter
          value={action}
          onChange={setAction}
          onReset={pages.reset}
          maxLength={80}
          label={t('admin.audit.filter_action')}
          placeholder={t('admin.audit.filter_action_placeholder')}
        />
        <KeysetFilter
          value={target}
          onChange={setTarget}
          onReset={pages.reset}
          maxLength={160}
          label={t('admin.audit.filter_target')}
          placeholder={t('admin.audit.filter_target_placeholder')}
          className="sm:flex-1"
        />
      </div>
      <KeysetResults query={query} pages={pages} empty={t('admin.audit.none')}>
        {(rows) => (
          <ol className="flex flex-col gap-3">
            {rows.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </KeysetResults>
    </div>
  );
}
