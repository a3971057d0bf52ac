import { BOT_LIMITS } from '@reverie/shared';
import { useState } from 'react';
import { FormField, formInputClass, type CharacterBasicsValue } from '../../../components/ui/character-basics';
import { useTranslation } from '../../../lib/i18n';

/** The labels of a character's name, age and description: the create form and the author's edit form. */
export const basicsLabels = (t: (key: string) => string) => ({
  name: t('create_character.name'),
  age: t('create_character.age'),
  description: t('create_character.description'),
});

/** What the create and edit forms say when `checkCharacterBasics` finds a field wrong. */
export const basicsMessages = (t: (key: string) => string) => ({
  name: t('validation.name_required'),
  age: t('create_character.age_min'),
  description: t('validation.required'),
});

/**
 * The name, age and description a create or edit form holds, and the props of its
 * `CharacterBasics`: a change also tells `edited`, which drops that field's error.
 */
export function useBasicsInput(initial: CharacterBasicsValue, edited: (field: string) => void) {
  const { t } = useTranslation();
  const [basics, setBasics] = useState(initial);
  const input = {
    value: basics,
    onChange: (field: keyof CharacterBasicsValue, value: string) => {
      setBasics((current) => ({ ...current, [field]: value }));
      edited(field);
    },
    labels: basicsLabels(t),
  };
  return { basics, input };
}

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
  const values = { greeting, scenario };
  return (
    <>
      {(['greeting', 'scenario'] as const).map((field) => (
        <FormField key={field} label={t(`create_character.${field}`)} error={errors[field]}>
          <textarea
            className={`${formInputClass} min-h-16`}
            name={field}
            value={values[field]}
            maxLength={BOT_LIMITS[field]}
            placeholder={placeholders ? t(`create_character.${field}_placeholder`) : undefined}
            onChange={(e) => onChange(field, e.target.value)}
          />
        </FormField>
      ))}
    </>
  );
}
