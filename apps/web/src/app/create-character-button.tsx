import { useTranslation } from '../lib/i18n';
import { useModal } from '../lib/modals';

/** "Create a character" in a page's actions (My characters, Settings): opens the create dialog. */
export function CreateCharacterButton({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const modal = useModal();
  return (
    <button
      type="button"
      onClick={() => modal.open('create')}
      className="rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary hover:brightness-110"
      data-testid={testId}
    >
      {t('nav.create_character')}
    </button>
  );
}
