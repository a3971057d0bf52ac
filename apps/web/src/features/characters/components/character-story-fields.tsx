import { BOT_LIMITS } from '@reverie/shared';
import { FormField, formInputClass } from '../../../components/ui/character-basics';
import { useTranslation } from '../../../lib/i18n';

/** What the create and edit forms say when `checkCharacterBasics` finds a field wrong. */
export const basicsMessages = (t: (key: string) => string) => ({
  name: t('validation.name_required'),
  age: t('create_character.age_min'),
  description: t('validation.required'),
});

/** A character's greeting and scenario: the create form and the author's edit form. */
export function CharacterStoryFields({
  greeting,
  scenario,
  onChange,
  errors = {},
  placeholders = false,
}: {
  greeting: string;
  scenario: string;
  onChange: (field: 'greeting' | 'scenario', value: string) => void;
  errors?: Partial<Record<'greeting' | 'scenario', string>>;
  /** Show the create form's examples in the empty fields. */
  placeholders?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormField label={t('create_character.greeting')} error={errors.greeting}>
        <textarea
          className={`${formInputClass} min-h-16`}
          name="greeting"
          value={greeting}
          maxLength={BOT_LIMITS.greeting}
          placeholder={placeholders ? t('create_character.greeting_placeholder') : undefined}
          onChange={(e) => onChange('greeting', e.target.value)}
        />
      </FormField>
      <FormField label={t('create_character.scenario')} error={errors.scenario}>
        <textarea
          className={`${formInputClass} min-h-16`}
          name="scenario"
          value={scenario}
          maxLength={BOT_LIMITS.scenario}
          placeholder={placeholders ? t('create_character.scenario_placeholder') : undefined}
          onChange={(e) => onChange('scenario', e.target.value)}
        />
      </FormField>
    </>
  );
}
