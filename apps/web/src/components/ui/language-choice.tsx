import { Check } from 'lucide-react';
import { LANGUAGE_PICKER_ORDER, LOCALE_HTML_LANG, LOCALE_NATIVE_NAMES, type Locale } from '@reverie/shared';
import { Icon } from './icon';

/**
 * The five languages as a group of toggle buttons, each name in its own language (the side
 * panel, Settings, the welcome steps). `size="lg"` is the welcome step's larger buttons with a
 * check on the chosen one; `className` adds columns to the two-column grid.
 */
export function LanguageChoice({
  label,
  value,
  onChange,
  size = 'sm',
  className = '',
}: {
  /** The group's accessible name. */
  label: string;
  value: Locale;
  onChange: (locale: Locale) => void;
  size?: 'sm' | 'lg';
  className?: string;
}) {
  return (
    <div role="group" aria-label={label} className={`grid grid-cols-2 gap-2 ${className}`}>
      {LANGUAGE_PICKER_ORDER.map((code) => (
        <button
          key={code}
          type="button"
          lang={LOCALE_HTML_LANG[code]}
          aria-pressed={code === value}
          onClick={() => onChange(code)}
          className={`rounded-xl border text-left ${size === 'lg' ? 'flex items-center justify-between px-4 py-3' : 'px-3 py-2 text-sm'} ${code === value ? 'border-primary bg-primary/15' : 'border-white/10 hover:bg-white/5'}`}
        >
          {LOCALE_NATIVE_NAMES[code]}
          {size === 'lg' && code === value && <Icon icon={Check} size="sm" className="text-primary" />}
        </button>
      ))}
    </div>
  );
}
