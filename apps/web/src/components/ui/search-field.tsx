import { Search, X } from 'lucide-react';
import { useTranslation } from '../../lib/i18n';
import { Icon } from './icon';

/**
 * A search box (`role="search"`): a magnifier, the field and, once something is typed, a
 * button that clears it. Submitting does nothing: the caller searches as the value changes.
 */
export function SearchField({
  value,
  onChange,
  label,
  placeholder,
  maxLength,
  testId,
  className = '',
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder: string;
  maxLength: number;
  testId: string;
  /** The wrapper's own classes (its margins). */
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <form role="search" className={`relative ${className}`} onSubmit={(event) => event.preventDefault()}>
      <Icon
        icon={Search}
        size="sm"
        className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-muted"
      />
      <input
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={maxLength}
        enterKeyHint="search"
        aria-label={label}
        placeholder={placeholder}
        data-testid={testId}
        className="w-full rounded-full border border-white/15 bg-surface py-2 pr-10 pl-10 text-sm placeholder:text-muted focus:border-primary focus:outline-none [&::-webkit-search-cancel-button]:hidden"
      />
      {value && (
        <button
          type="button"
          onClick={() => onChange('')}
          aria-label={t('app.clear_search')}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full p-1.5 text-muted hover:text-fg"
        >
          <Icon icon={X} size="sm" />
        </button>
      )}
    </form>
  );
}
