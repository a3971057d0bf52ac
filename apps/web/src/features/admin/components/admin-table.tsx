import type { ReactNode } from 'react';

/** One column of an `AdminTable`. */
export interface AdminColumn<T> {
  /** Stable id (also the cell's `data-column`). */
  id: string;
  /** The header (a translated text). */
  label: string;
  render: (row: T) => ReactNode;
  /** Extra classes of the cell (e.g. `text-right tabular-nums`). */
  className?: string;
}

/**
 * The console's data table: a table on a wide screen, stacked cards (label, value) on a
 * phone. Rows may be clickable (`onRowClick`: a row is then a button for the keyboard too).
 */
export function AdminTable<T>({
  columns,
  rows,
  rowKey,
  onRowClick,
  testId,
  caption,
}: {
  columns: AdminColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  onRowClick?: (row: T) => void;
  testId?: string;
  /** Read by screen readers only. */
  caption?: string;
}) {
  const clickable = (row: T) =>
    onRowClick
      ? {
          role: 'button' as const,
          tabIndex: 0,
          onClick: () => onRowClick(row),
          onKeyDown: (event: React.KeyboardEvent) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              onRowClick(row);
            }
          },
        }
      : {};
  return (
    <div data-testid={testId}>
      <div className="hidden overflow-x-auto rounded-2xl border border-white/10 bg-surface md:block">
        <table className="w-full text-left text-sm">
          {caption && <caption className="sr-only">{caption}</caption>}
          <thead className="border-b border-white/10 text-xs tracking-wide text-muted uppercase">
            <tr>
              {columns.map((c) => (
                <th key={c.id} scope="col" className={`px-4 py-3 font-medium ${c.className ?? ''}`}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                data-testid="admin-row"
                className={`border-b border-white/5 last:border-0 ${onRowClick ? 'cursor-pointer hover:bg-white/5 focus:bg-white/5 focus:outline-none' : ''}`}
                {...clickable(row)}
              >
                {columns.map((c) => (
                  <td key={c.id} data-column={c.id} className={`px-4 py-3 align-top ${c.className ?? ''}`}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="flex flex-col gap-3 md:hidden">
        {rows.map((row) => (
          <li
            key={rowKey(row)}
            data-testid="admin-card"
            className={`rounded-2xl border border-white/10 bg-surface p-4 ${onRowClick ? 'cursor-pointer active:bg-white/5' : ''}`}
            {...clickable(row)}
          >
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              {columns.map((c) => (
                <div key={c.id} className="contents">
                  <dt className="text-muted">{c.label}</dt>
                  <dd className="min-w-0 break-words">{c.render(row)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </div>
  );
}
