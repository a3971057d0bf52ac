/** The console's query keys: every admin write invalidates `adminKeys.all`. */
export const adminKeys = {
  all: ['admin'] as const,
  count: (path: string) => ['admin', 'count', path] as const,
  overview: (days: number) => ['admin', 'overview', days] as const,
  users: (q: string, offset: number) => ['admin', 'users', q, offset] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  ledger: (user: string | undefined, cursor: string | undefined) =>
    ['admin', 'ledger', user ?? '', cursor ?? ''] as const,
  ledgerCheck: () => ['admin', 'ledger-check'] as const,
  payments: (filters: Record<string, string | undefined>) => ['admin', 'payments', filters] as const,
  webhooks: (filters: Record<string, string | undefined>) => ['admin', 'webhooks', filters] as const,
  audit: (filters: Record<string, string | undefined>) => ['admin', 'audit', filters] as const,
};

/** Query parameters without the empty ones. */
export const queryOf = (values: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number
  >;
