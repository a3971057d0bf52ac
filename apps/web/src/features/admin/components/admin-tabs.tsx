/**
 * A section's tabs (Payments: payments, webhooks, ledger; Reports: messages, support): one
 * tab list that scrolls sideways on a phone; each tab's test id is `${testIdPrefix}${id}`.
 */
export function AdminTabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  testIdPrefix,
}: {
  tabs: readonly { id: T; label: string }[];
  value: T;
  onChange: (id: T) => void;
  /** The tab list's accessible name. */
  label: string;
  testIdPrefix: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="-mx-4 flex gap-1 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={value === tab.id}
          data-testid={`${testIdPrefix}${tab.id}`}
          onClick={() => onChange(tab.id)}
          className={`shrink-0 rounded-xl px-3 py-2 text-sm transition ${
            value === tab.id ? 'bg-white/10 font-medium text-white' : 'text-muted hover:bg-white/5 hover:text-white'
          }`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
