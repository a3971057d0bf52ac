import '../../features/characters/character-texts';
import { useSearchParams } from 'react-router';
import { Page } from '../../components/ui/page';
import { MyCharacters, type MineKind } from '../../features/characters/components/my-characters';
import { useTranslation } from '../../lib/i18n';
import { useModal } from '../../lib/modals';
import { CreateCharacterButton } from '../create-character-button';
import { useProfile } from '../../lib/profile';

/** `/settings/characters` (from Profile and after creating one): My characters; `?kind=persona` the personas. */
export function Component() {
  const { t } = useTranslation();
  const modal = useModal();
  const { profile } = useProfile();
  const [params, setParams] = useSearchParams();
  const kind: MineKind = params.get('kind') === 'persona' ? 'persona' : 'character';
  return (
    <Page
      title={t('characters.mine.title')}
      subtitle={t('characters.mine.subtitle')}
      actions={<CreateCharacterButton testId="my-characters-create" />}
    >
      {profile && (
        <MyCharacters
          viewer={profile.id}
          kind={kind}
          onKindChange={(next) => setParams(next === 'persona' ? { kind: 'persona' } : {}, { replace: true })}
          onCreate={() => modal.open('create')}
        />
      )}
    </Page>
  );
}
