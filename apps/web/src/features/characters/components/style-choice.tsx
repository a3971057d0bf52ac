import { useTranslation } from '../../../lib/i18n';
import { ChoiceButtons } from '../../../components/ui/segmented-control';

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
      <ChoiceButtons
        kind="toggle"
        options={CHARACTER_STYLES.map((s) => ({ value: s, label: t(`explore.filter_${s}`) }))}
        value={value}
        onChange={onChange}
        className="mt-1 flex gap-2"
        buttonClass={(chosen) =>
          `rounded-full border px-3 py-1 text-sm ${chosen ? 'border-primary bg-primary/20' : 'border-white/15 text-muted'}`
        }
      />
    </fieldset>
  );
}
