import type { ChangeEvent, ReactNode } from 'react';
import { BOT_LIMITS, MIN_CHARACTER_AGE } from '@reverie/shared';

/** A text input or text area of the character and persona forms. */
export const formInputClass =
  'mt-1 w-full rounded-xl border border-white/10 bg-bg px-3 py-2 text-sm outline-none focus:border-primary';

/** A labelled form control with its error under it. */
export function FormField({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <label className="block">
      <span className="text-sm font-medium">{label}</span>
      {children}
      {error && (
        <span role="alert" className="mt-1 block text-xs text-red-400">
          {error}
        </span>
      )}
    </label>
  );
}

/** What every character and persona form asks first. `age` as typed (a number field's text). */
export interface CharacterBasicsValue {
  name: string;
  age: string;
  description: string;
}

type BasicsField = keyof CharacterBasicsValue;

/**
 * Name and age side by side, then the description, with the limits of the API (`BOT_LIMITS`,
 * `MIN_CHARACTER_AGE`): the create form, the author's edit form and the style transform's
 * persona form. Labels come from the form (each feature's texts).
 */
export function CharacterBasics({
  value,
  onChange,
  labels,
  errors = {},
  placeholders = {},
  required = false,
}: {
  value: CharacterBasicsValue;
  onChange: (field: BasicsField, value: string) => void;
  labels: Record<BasicsField, string>;
  errors?: Partial<Record<BasicsField, string>>;
  placeholders?: Partial<Record<BasicsField, string>>;
  /** The browser's own checks (a form without `noValidate` and without its own messages). */
  required?: boolean;
}) {
  /** The name's and the description's props: their value, the API's limit, the placeholder. */
  const textProps = (field: 'name' | 'description') => ({
    name: field,
    value: value[field],
    maxLength: BOT_LIMITS[field],
    placeholder: placeholders[field],
    required,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(field, e.target.value),
  });
  return (
    <>
      <div className="grid grid-cols-[1fr_6rem] gap-3">
        <FormField label={labels.name} error={errors.name}>
          <input className={formInputClass} {...textProps('name')} />
        </FormField>
        <FormField label={labels.age} error={errors.age}>
          <input
            className={formInputClass}
            name="age"
            type="number"
            min={MIN_CHARACTER_AGE}
            max={200}
            value={value.age}
            required={required}
            onChange={(e) => onChange('age', e.target.value)}
          />
        </FormField>
      </div>
      <FormField label={labels.description} error={errors.description}>
        <textarea className={`${formInputClass} min-h-24`} {...textProps('description')} />
      </FormField>
    </>
  );
}

/** The checks the API would make anyway, with the form's messages for them. */
export function checkCharacterBasics(
  value: CharacterBasicsValue,
  messages: Record<BasicsField, string>,
): Partial<Record<BasicsField, string>> {
  const found: Partial<Record<BasicsField, string>> = {};
  if (!value.name.trim()) found.name = messages.name;
  const age = Number(value.age);
  if (!Number.isInteger(age) || age < MIN_CHARACTER_AGE) found.age = messages.age;
  if (!value.description.trim()) found.description = messages.description;
  return found;
}
