import { useState } from 'react';
import { AdminTabs } from '../../components/admin-tabs';
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
      <AdminTabs
        tabs={(['messages', 'support'] as const).map((id) => ({ id, label: t(`admin.reports.tab_${id}`) }))}
        value={tab}
        onChange={setTab}
        label={t('admin.reports.title')}
        testIdPrefix="reports-tab-"
      />
      {tab === 'messages' ? <MessageReportList /> : <SupportReportList />}
    </div>
  );
}
