import { useState } from 'react';
import type { AdminSectionProps } from '../../sections';
import { useTranslation } from '../../../../lib/i18n';
import { MessageReportDetailView, MessageReportList } from './message-reports';
import { SupportReportDetailView, SupportReportList } from './support-reports';

/**
 * `/admin/reports` (docs/admin.md "Reports"): message reports and support reports; an item's
 * page is `/admin/reports/m<id>` (a message report) or `/admin/reports/s<id>` (a support report).
 */
export function ReportsSection({ itemId }: AdminSectionProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'messages' | 'support'>('messages');
  if (itemId?.startsWith('m') && /^m\d+$/.test(itemId)) return <MessageReportDetailView id={Number(itemId.slice(1))} />;
  if (itemId?.startsWith('s')) return <SupportReportDetailView id={itemId.slice(1)} />;
  return (
    <div className="flex flex-col gap-4">
      <div role="tablist" className="flex gap-2">
        {(['messages', 'support'] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            onClick={() => setTab(id)}
            className={`rounded-full px-4 py-2 text-sm transition ${
              tab === id ? 'bg-primary text-on-primary' : 'bg-white/5 text-muted hover:bg-white/10 hover:text-fg'
            }`}
            data-testid={`reports-tab-${id}`}
          >
            {t(`admin.reports.tab_${id}`)}
          </button>
        ))}
      </div>
      {tab === 'messages' ? <MessageReportList /> : <SupportReportList />}
    </div>
  );
}
