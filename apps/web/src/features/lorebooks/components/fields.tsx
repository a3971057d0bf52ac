import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { outlineButtonClass } from '../../../components/ui/dialog-actions';
import { FileButton } from '../../../components/ui/file-button';
import { Icon } from '../../../components/ui/icon';
import { CheckboxRow } from '../../../components/ui/switch-row';

/** The lorebook pages' pieces: the book settings and the entry form's fields, the rows' delete button. */

export const inputClass =
  'w-full rounded-xl border border-white/10 bg-bg px-3 py-2 text-sm leading-relaxed focus:border-primary/60 focus:outline-none';

/**
 * The outlined button (the app's `outlineButtonClass`, its icon before its text) that reads a
 * lorebook's JSON file, into a book or as a new book; `label` is its text.
 */
export function ImportButton({
  onFile,
  label,
  testId,
  disabled,
  icon,
}: {
  onFile: (file: File) => Promise<unknown>;
  label: string;
  testId: string;
  disabled?: boolean;
  icon: LucideIcon;
}) {
  return (
    <FileButton
      accept="application/json,.json"
      onFile={(file) => void onFile(file)}
      label={label}
      testId={testId}
      className={`${outlineButtonClass} disabled:opacity-50`}
      disabled={disabled}
    >
      <Icon icon={icon} size="sm" />
      {label}
    </FileButton>
  );
}

/** A labelled field: its error when it has one, else its help. */
export function Field({
  label,
  error,
  help,
  className = '',
  children,
}: {
  label: string;
  error?: string;
  help?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={`flex flex-col gap-1.5 text-sm ${className}`.trim()}>
      <span className="font-medium">{label}</span>
      {children}
      {error ? (
        <span role="alert" className="text-xs text-red-300">
          {error}
        </span>
      ) : help ? (
        <span className="text-xs text-muted">{help}</span>
      ) : null}
    </label>
  );
}

export function Toggle({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  testId?: string;
}) {
  return (
    <CheckboxRow
      checked={checked}
      onChange={onChange}
      testId={testId}
      className="flex items-center gap-2 text-sm"
      boxClassName="size-4 accent-[var(--color-primary)]"
    >
      <span>{label}</span>
    </CheckboxRow>
  );
}

/** "Delete" at the end of a book's or an entry's row. */
export function RowDeleteButton({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="shrink-0 rounded-full px-3 py-1.5 text-xs text-red-300 hover:bg-red-500/10"
      data-testid={testId}
    >
      {label}
    </button>
  );
}

/** A line of text (a name, a comment, keys separated by commas), as typed. */
export function TextInput({
  value,
  onChange,
  maxLength,
  placeholder,
  label,
  invalid,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  placeholder?: string;
  /** Its name, where it stands without a `Field`. */
  label?: string;
  invalid?: boolean;
  testId?: string;
}) {
  return (
    <input
      value={value}
      onChange={(event) => onChange(event.target.value)}
      maxLength={maxLength}
      placeholder={placeholder}
      aria-label={label}
      aria-invalid={invalid || undefined}
      className={inputClass}
      data-testid={testId}
    />
  );
}

/** A whole number's field, as typed (`min` and `max` when it has them). */
export function NumberInput({
  value,
  onChange,
  min,
  max,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  min?: number;
  max?: number;
  testId?: string;
}) {
  return (
    <input
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      className={inputClass}
      data-testid={testId}
    />
  );
}
