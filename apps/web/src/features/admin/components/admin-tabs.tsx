/**
 * A section's tabs (Payments: payments, webhooks, ledger; Reports: messages, support): one
 * tab list that scrolls sideways on a phone; each tab's test id is `${testIdPrefix}${id}`.
 * The chosen tab is underlined rather than filled, so that the tabs do not look like the
 * console's side menu above them or the filter chips under them (Reports has all three).
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
    <div
      role="tablist"
      aria-label={label}
      className="-mx-4 flex gap-1 overflow-x-auto px-4 shadow-[inset_0_-1px_0_rgb(255_255_255/0.1)] sm:mx-0 sm:px-0"
    >
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={value === tab.id}
          data-testid={`${testIdPrefix}${tab.id}`}
          onClick={() => onChange(tab.id)}
          className={`shrink-0 border-b-2 px-3 py-2.5 text-sm transition ${
            value === tab.id ? 'border-primary font-medium text-fg' : 'border-transparent text-muted hover:text-fg'
          }`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
