import '../texts';
import type { ReactNode } from 'react';
import { SegmentedControl } from '../../../components/ui/segmented-control';
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
      <SegmentedControl
        fill
        className="mt-1 sm:max-w-xs"
        value={value}
        onChange={onChange}
        options={[
          { value: 'private', label: t('create_character.visibility_private') },
          { value: 'public', label: publicLabel },
        ]}
      />
      {children}
    </fieldset>
  );
}
