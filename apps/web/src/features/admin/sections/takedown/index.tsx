import type { AdminSectionProps } from '../../sections';
import { TakedownDetailView } from './takedown-detail';
import { TakedownList } from './takedown-list';

/** `/admin/takedown` and `/admin/takedown/<id>` (docs/admin.md "Takedown"). */
export function TakedownSection({ itemId }: AdminSectionProps) {
  return itemId ? <TakedownDetailView id={itemId} /> : <TakedownList />;
}
