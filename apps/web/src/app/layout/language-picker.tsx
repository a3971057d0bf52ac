import { Check, Globe } from 'lucide-react';
import { LANGUAGE_PICKER_ORDER, LOCALE_HTML_LANG, LOCALE_NATIVE_NAMES, type Locale } from '@reverie/shared';
import { Icon } from '../../components/ui/icon';
import { LanguageChoice } from '../../components/ui/language-choice';
import { useMenu } from '../../components/ui/use-menu';
import { analytics } from '../../lib/analytics';
import { changeLocale, currentLocale, useTranslation } from '../../lib/i18n';

export async function selectLocale(locale: Locale) {
  await changeLocale(locale);
  analytics().track('locale_select', { lang: locale });
}

/** The language picker: English, Deutsch, Español, Chinese, Russian. */
export function LanguagePicker({ variant = 'icon' }: { variant?: 'icon' | 'list' }) {
  const { t } = useTranslation();
  const active = currentLocale();
  if (variant === 'list') {
    return (
      <LanguageChoice label={t('language.label')} value={active} onChange={(locale) => void selectLocale(locale)} />
    );
  }
  return <LanguageMenu active={active} label={t('language.choose')} />;
}

/** The language menu button (`useMenu`: arrow keys, Home/End, Escape, outside click). */
function LanguageMenu({ active, label }: { active: Locale; label: string }) {
  const { open, setOpen, root, itemRef, onKeyDown } = useMenu(
    LANGUAGE_PICKER_ORDER.length,
    LANGUAGE_PICKER_ORDER.indexOf(active),
  );

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        type="button"
        className="flex items-center gap-1.5 rounded-full px-2.5 py-2 text-sm text-muted hover:bg-white/10 hover:text-fg"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        data-testid="language-picker"
      >
        <Icon icon={Globe} size="md" />
        <span className="uppercase">{active === 'ch' ? '中文' : active}</span>
      </button>
      {open && (
        <div
          role="menu"
          aria-label={label}
          className="absolute right-0 z-50 mt-2 min-w-44 rounded-2xl border border-white/10 bg-surface p-1.5 shadow-2xl"
        >
          {LANGUAGE_PICKER_ORDER.map((locale, i) => (
            <button
              key={locale}
              ref={itemRef(i)}
              type="button"
              role="menuitem"
              tabIndex={-1}
              lang={LOCALE_HTML_LANG[locale]}
              onClick={() => {
                setOpen(false);
                void selectLocale(locale);
              }}
              className="flex w-full items-center justify-between gap-4 rounded-xl px-3 py-2 text-left text-sm outline-none hover:bg-white/10 focus:bg-white/10"
            >
              {LOCALE_NATIVE_NAMES[locale]}
              {locale === active && <Icon icon={Check} size="sm" className="text-primary" />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
