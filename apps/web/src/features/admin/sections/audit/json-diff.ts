/** One field of a before/after pair, as the audit log shows it. */
export interface DiffRow {
  key: string;
  before: string;
  after: string;
  changed: boolean;
}

const show = (value: unknown) =>
  value === undefined ? '' : value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields of `before` and `after` (top level), changed ones first, in a readable text. */
export function jsonDiff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): DiffRow[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const rows = keys.map((key) => {
    const b = before ? show(before[key]) : '';
    const a = after ? show(after[key]) : '';
    return { key, before: b, after: a, changed: b !== a };
  });
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}
