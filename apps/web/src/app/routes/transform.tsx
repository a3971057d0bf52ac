import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { Page } from '../../components/ui/page';
import { createBot } from '../../features/characters/api/create-bot';
import { TransformStudio, type PersonaFields } from '../../features/transform';
import { useTranslation } from '../../lib/i18n';
import { useProfile } from '../../lib/profile';
import { botKeys } from '../../lib/query-keys';
import { currentReturnPath } from '../../lib/return-path';
import { useSession } from '../../lib/session';
import { useModal } from '../../lib/modals';
import '../../features/transform/texts';

/**
 * `/transform` (issue 16, docs/transform.md): open to everyone; acting needs an account (a
 * guest is asked to sign up or log in and comes back here). The page gives the feature what
 * it needs from other features: the buy-desires modal and persona creation.
 */
export function Component() {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { profile, isPremium } = useProfile();
  const modal = useModal();
  const location = useLocation();
  const client = useQueryClient();

  const createPersona = async (photo: File, fields: PersonaFields) => {
    await createBot({
      kind: 'persona',
      name: fields.name,
      age: fields.age,
      description: fields.description,
      occupation: [],
      personality: [],
      tags: [],
      visibility: 'private',
      photo,
    });
    await client.invalidateQueries({ queryKey: botKeys.mine() });
  };

  return (
    <Page title={t('pages.transform_title')} subtitle={t('transform.subtitle')}>
      <TransformStudio
        isAuthorized={isAuthorized}
        isPremium={isPremium}
        onRequireAuth={() => modal.requireAuth(currentReturnPath(location))}
        onNeedDesires={() => modal.open('pw', { from: 'transform' })}
        onCreatePersona={createPersona}
        defaultPersonaName={profile?.name ?? ''}
      />
    </Page>
  );
}
