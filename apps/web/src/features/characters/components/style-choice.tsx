import { useTranslation } from '../../../lib/i18n';

export type CharacterStyle = 'anime' | 'realistic';
export const CHARACTER_STYLES = ['realistic', 'anime'] as const;

/** The style tag of a character's tags (the Explore filters read it); realistic when it has none. */
export const styleOf = (tags: string[]): CharacterStyle => (tags.includes('anime') ? 'anime' : 'realistic');

/** The character's tags with `style` as its only style tag (its other tags kept). */
export const withStyle = (tags: string[], style: CharacterStyle): string[] => [
  ...tags.filter((tag) => tag !== 'anime' && tag !== 'realistic'),
  style,
];

/** Anime or realistic (the create form and the author's edit form). */
export function StyleChoice({ value, onChange }: { value: CharacterStyle; onChange: (style: CharacterStyle) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend className="text-sm font-medium">{t('create_character.tags')}</legend>
      <div className="mt-1 flex gap-2">
        {CHARACTER_STYLES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={value === s}
            onClick={() => onChange(s)}
            className={`rounded-full border px-3 py-1 text-sm ${value === s ? 'border-primary bg-primary/20' : 'border-white/15 text-muted'}`}
          >
            {t(`explore.filter_${s}`)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
