import '../../../lib/error-texts';
import '../character-texts';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n';

/** A character that does not exist or that the viewer may not see. */
export function CharacterNotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-md px-4 py-20 text-center">
      <p className="text-lg">{t('characters.not_found')}</p>
      <Link to="/" className="mt-4 inline-block rounded-full bg-primary px-5 py-2 font-semibold text-on-primary">
        {t('errors.go_home')}
      </Link>
    </div>
  );
}
