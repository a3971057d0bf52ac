/**
 * The filters of a console list as toggle chips (a reports list's open / resolved / closed, the
 * takedown requests' states). `strong` marks the chosen chip in the primary colour, for a list
 * with no tabs above it.
 */
export function FilterChips<T extends string>({
  value,
  options,
  onChange,
  label,
  strong = false,
}: {
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  label: (option: T) => string;
  strong?: boolean;
}) {
  const chosen = strong ? 'bg-primary text-on-primary' : 'bg-white/15 text-fg';
  return (
    <div className="flex flex-wrap gap-2">
      {options.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded-full px-3 py-1.5 text-sm transition ${
            value === option ? chosen : 'bg-white/5 text-muted hover:bg-white/10 hover:text-fg'
          }`}
        >
          {label(option)}
        </button>
      ))}
    </div>
  );
}
