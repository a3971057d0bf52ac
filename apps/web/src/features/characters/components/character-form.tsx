import '../character-texts';
import { useState, type ReactNode } from 'react';
import { BOT_LIMITS, OCCUPATION_OPTIONS, PERSONALITY_OPTIONS } from '@reverie/shared';
import { CharacterBasics, FormField, formInputClass } from '../../../components/ui/character-basics';
import { useTranslation } from '../../../lib/i18n';
import { CharacterStoryFields, useBasicsInput } from './character-story-fields';
import { ChoicePicker } from './choice-picker';
import { PhotoField } from './photo-field';
import { StyleChoice, type CharacterStyle } from './style-choice';

/** Error texts per field (the form's own checks, the API's field errors). */
export type FieldErrors = Partial<Record<string, string>>;
/** A list of choices as the picker holds it: offered options picked, or free text. */
export type Choices = { picked: string[]; text: string };

/** The choices to send: the free text when there is one, else the options picked. */
export const choicesOf = (value: Choices) => (value.text.trim() ? [value.text.trim()] : value.picked);

/** What the form starts with: empty for a new character, the saved one's fields when editing. */
export interface CharacterFormStart {
  name: string;
  age: string;
  description: string;
  occupation: Choices;
  personality: Choices;
  greeting: string;
  scenario: string;
  exampleMessages: string;
  style: CharacterStyle;
}

/**
 * The fields of the create and edit dialogs (`CharacterFormFields` shows them), and the
 * errors per field: a field the user changes loses its error (the next submit checks again).
 */
export function useCharacterForm(start: () => CharacterFormStart) {
  const [initial] = useState(start);
  const [photo, setPhoto] = useState<File | null>(null);
  const [occupation, setOccupation] = useState(initial.occupation);
  const [personality, setPersonality] = useState(initial.personality);
  const [greeting, setGreeting] = useState(initial.greeting);
  const [scenario, setScenario] = useState(initial.scenario);
  const [exampleMessages, setExampleMessages] = useState(initial.exampleMessages);
  const [style, setStyle] = useState<CharacterStyle>(initial.style);
  const [errors, setErrors] = useState<FieldErrors>({});
  const edited = (field: string) =>
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const { basics, input: basicsInput } = useBasicsInput(
    { name: initial.name, age: initial.age, description: initial.description },
    edited,
  );
  return {
    basics,
    basicsInput,
    photo,
    setPhoto,
    occupation,
    setOccupation,
    personality,
    setPersonality,
    greeting,
    setGreeting,
    scenario,
    setScenario,
    exampleMessages,
    setExampleMessages,
    style,
    setStyle,
    errors,
    setErrors,
    edited,
    /** The fields every kind sends: name, age, description, occupation and personality. */
    basicFields: () => ({
      name: basics.name.trim(),
      age: Number(basics.age),
      description: basics.description,
      occupation: choicesOf(occupation),
      personality: choicesOf(personality),
    }),
  };
}

export type CharacterForm = ReturnType<typeof useCharacterForm>;

/** The API's field errors as the form shows them: the first text of each field. */
export const firstFieldErrors = (fieldErrors: Record<string, string[]>): FieldErrors =>
  Object.fromEntries(Object.entries(fieldErrors).map(([field, list]) => [field, list[0]]));

/**
 * The fields of a character or persona, shared by the create and edit dialogs: photo, name,
 * age, description, occupation and personality; for a character also greeting, scenario,
 * example messages and style, with `aside` next to the style and `children` after them.
 */
export function CharacterFormFields({
  form,
  errors,
  character,
  photoHint,
  currentPhoto,
  placeholders = false,
  aside,
  children,
}: {
  form: CharacterForm;
  /** The errors shown (the create dialog adds its live checks to the form's). */
  errors: FieldErrors;
  /** A character (the story fields, style, …), not a persona. */
  character: boolean;
  photoHint: string;
  /** The picture the character has now (editing). */
  currentPhoto?: string | null;
  /** The create form's examples in the empty fields. */
  placeholders?: boolean;
  aside?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const picker = (field: 'occupation' | 'personality', value: Choices, set: (value: Choices) => void) => (
    <ChoicePicker
      label={t(`create_character.${field}`)}
      options={field === 'occupation' ? OCCUPATION_OPTIONS : PERSONALITY_OPTIONS}
      labelPrefix={`create_character.${field === 'occupation' ? 'occupations' : 'personalities'}`}
      value={value}
      onChange={(next) => {
        set(next);
        form.edited(field);
      }}
      error={errors[field]}
    />
  );
  return (
    <>
      <PhotoField
        photo={form.photo}
        current={currentPhoto}
        onChange={form.setPhoto}
        error={errors.photo}
        onError={(message) => form.setErrors((e) => ({ ...e, photo: message }))}
        hint={photoHint}
      />
      <CharacterBasics
        {...form.basicsInput}
        placeholders={
          placeholders
            ? {
                name: t('create_character.name_placeholder'),
                description: t('create_character.description_placeholder'),
              }
            : undefined
        }
        errors={errors}
      />
      {picker('occupation', form.occupation, form.setOccupation)}
      {picker('personality', form.personality, form.setPersonality)}
      {character && (
        <>
          <CharacterStoryFields
            greeting={form.greeting}
            scenario={form.scenario}
            placeholders={placeholders}
            errors={errors}
            onChange={(field, value) => {
              (field === 'greeting' ? form.setGreeting : form.setScenario)(value);
              form.edited(field);
            }}
          />
          <FormField label={t('characters.form.example_messages')} error={errors.example_messages}>
            <textarea
              className={`${formInputClass} min-h-16`}
              name="example_messages"
              value={form.exampleMessages}
              maxLength={BOT_LIMITS.exampleMessages}
              placeholder={t('characters.form.example_messages_placeholder')}
              onChange={(e) => {
                form.setExampleMessages(e.target.value);
                form.edited('example_messages');
              }}
            />
          </FormField>
          <div className="grid gap-3 sm:grid-cols-2">
            <StyleChoice value={form.style} onChange={form.setStyle} />
            {aside}
          </div>
          {children}
        </>
      )}
    </>
  );
}
