import { ChoiceButtons } from '../../../components/ui/segmented-control';

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
    <ChoiceButtons
      kind="tab"
      options={tabs.map((tab) => ({ value: tab.id, label: tab.label }))}
      value={value}
      onChange={onChange}
      label={label}
      testId={(id) => `${testIdPrefix}${id}`}
      className="-mx-4 flex gap-1 overflow-x-auto px-4 shadow-[inset_0_-1px_0_rgb(255_255_255/0.1)] sm:mx-0 sm:px-0"
      buttonClass={(chosen) =>
        `shrink-0 border-b-2 px-3 py-2.5 text-sm transition ${
          chosen ? 'border-primary font-medium text-fg' : 'border-transparent text-muted hover:text-fg'
        }`
      }
    />
  );
}
