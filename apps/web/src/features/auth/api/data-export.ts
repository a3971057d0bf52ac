import { useQuery } from '@tanstack/react-query';
import type { DataExport, DataExportStatus } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { profileKeys } from '../../../lib/query-keys';

/** GET /api/profile/data_export: the latest archive of "Download my data". */
export const getDataExport = () => request<DataExportStatus>('/api/profile/data_export');

/** POST /api/profile/data_export: prepare a new archive (once a day; 429 before). */
export const requestDataExport = () => request<DataExport>('/api/profile/data_export', { method: 'POST' });

/** The archive's state; asked again every few seconds while it is being prepared. */
export function useDataExport(viewer: string) {
  return useQuery({
    queryKey: profileKeys.dataExport(viewer),
    queryFn: getDataExport,
    refetchInterval: (query) => (query.state.data?.export?.state === 'preparing' ? 5000 : false),
  });
}
