import { useTranslation } from '../../../lib/i18n';
import { PERSONA_CHOICES_MAX } from '@reverie/shared';
import '../texts';

/** "Pick at most 3 options or type free text" (spec §5). */
export function ChoicePicker({
  label,
  options,
  labelPrefix,
  value,
  onChange,
  error,
}: {
  label: string;
  options: readonly string[];
  labelPrefix: string;
  value: { picked: string[]; text: string };
  onChange: (value: { picked: string[]; text: string }) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const full = value.picked.length >= PERSONA_CHOICES_MAX;
  return (
    <fieldset>
      <legend className="text-sm font-medium">{label}</legend>
      <p className="mt-0.5 text-xs text-muted">{t('create_character.choices_hint')}</p>
      <div className="mt-2 flex flex-wrap gap-1.5">
        {options.map((option) => {
          const active = value.picked.includes(option);
          return (
            <button
              key={option}
              type="button"
              aria-pressed={active}
              disabled={!active && (full || Boolean(value.text.trim()))}
              onClick={() =>
                onChange({
                  picked: active ? value.picked.filter((p) => p !== option) : [...value.picked, option],
                  text: '',
                })
              }
              className={`rounded-full border px-3 py-1 text-xs transition disabled:opacity-40 ${
                active ? 'border-primary bg-primary/20 text-fg' : 'border-white/15 text-muted hover:text-fg'
              }`}
            >
              {t(`${labelPrefix}.${option}`)}
            </button>
          );
        })}
      </div>
      <input
        type="text"
        value={value.text}
        maxLength={200}
        placeholder={t('create_character.free_text_placeholder')}
        aria-label={`${label}: ${t('create_character.free_text_placeholder')}`}
        onChange={(e) => onChange({ picked: [], text: e.target.value })}
        className="mt-2 w-full rounded-xl border border-white/10 bg-bg px-3 py-2 text-sm outline-none focus:border-primary"
      />
      {error && <p className="mt-1 text-xs text-red-400">{error}</p>}
    </fieldset>
  );
}
