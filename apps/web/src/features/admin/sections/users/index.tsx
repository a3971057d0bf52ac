import '../../texts';
import type { AdminSectionProps } from '../../sections';
import { UserList } from './user-list';
import { UserPage } from './user-page';

/** `/admin/users` (search) and `/admin/users/<id>` (one user). */
export function UsersSection({ itemId }: AdminSectionProps) {
  return itemId ? <UserPage id={itemId} /> : <UserList />;
}
