import '../texts';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';

export type Visibility = 'public' | 'private';

/**
 * Who can see a character — "Only me" or everyone — as one segmented radio group, in the
 * create and the edit dialogs. `publicLabel` names the public side (the create dialog says
 * it is reviewed first); `children` go under the choice (a hint, a field error).
 */
export function VisibilityChoice({
  value,
  onChange,
  publicLabel,
  testId,
  children,
}: {
  value: Visibility;
  onChange: (value: Visibility) => void;
  publicLabel: string;
  testId?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <fieldset data-testid={testId}>
      <legend className="text-sm font-medium">{t('create_character.visibility')}</legend>
      <div role="radiogroup" className="mt-1 grid grid-cols-2 gap-1 rounded-full bg-bg p-1 sm:max-w-xs">
        {(['private', 'public'] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="radio"
            aria-checked={value === v}
            onClick={() => onChange(v)}
            className={`rounded-full px-2 py-1.5 text-sm font-medium ${value === v ? 'bg-primary text-on-primary' : 'text-muted'}`}
          >
            {v === 'private' ? t('create_character.visibility_private') : publicLabel}
          </button>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
