import '../../../../lib/error-texts';
import '../../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminCharacter } from '@reverie/shared';
import { showAlert } from '../../../../components/ui/alerts';
import { FileButton } from '../../../../components/ui/file-button';
import { Skeleton } from '../../../../components/ui/page';
import { SearchField } from '../../../../components/ui/search-field';
import { SegmentedControl } from '../../../../components/ui/segmented-control';
import { ApiRequestError } from '../../../../lib/api-client';
import { useTranslation } from '../../../../lib/i18n';
import { useAdminCharacter } from '../../api/get-admin-character';
import { useAdminCharacters } from '../../api/get-admin-characters';
import { useImportAdminCard } from '../../api/import-admin-card';
import { useSetCharacterVisibility } from '../../api/set-character-visibility';
import { useUnpublishCharacter } from '../../api/unpublish-character';
import {
  Badge,
  cardClass,
  ContentList,
  dangerButton,
  primaryButton,
  secondaryButton,
} from '../../components/content-ui';
import { ReasonForm } from '../../components/reason-form';
import { AdminSectionPage } from '../../components/admin-section-heading';
import type { AdminSectionProps } from '../../sections';
import { CharacterEditor } from './character-editor';

/** Unpublish any public character: the reason goes to the audit log. */
function UnpublishForm({ character, onDone }: { character: AdminCharacter; onDone: () => void }) {
  const { t } = useTranslation();
  const unpublish = useUnpublishCharacter();
  return (
    <ReasonForm
      id={`unpublish-${character.id}`}
      testId="admin-unpublish"
      inline
      className="mt-3 flex flex-col gap-3"
      reasonLabel={t('admin.characters.unpublish_reason')}
      requiredText={t('admin.characters.reason_required')}
      maxLength={1000}
      confirmLabel={t('admin.characters.unpublish')}
      danger
      errorText={(failure) => (failure instanceof Error ? failure.message : t('errors.something_went_wrong'))}
      onConfirm={async (reason) => {
        await unpublish.mutateAsync({ id: character.id, reason });
        showAlert(t('admin.characters.unpublished', { name: character.name }), { type: 'success' });
      }}
      onDone={onDone}
      onCancel={onDone}
    />
  );
}

export function CharacterRow({ character }: { character: AdminCharacter }) {
  const { t } = useTranslation();
  const visibility = useSetCharacterVisibility();
  const [unpublishing, setUnpublishing] = useState(false);
  const isPublic = character.visibility === 'public';
  const reviewTone = { approved: 'ok', pending: 'warn', rejected: 'bad' } as const;
  return (
    <li className={cardClass} data-testid={`admin-character-${character.slug}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          {character.avatar_url ? (
            <img src={character.avatar_url} alt="" className="h-14 w-14 shrink-0 rounded-xl object-cover" />
          ) : (
            <div className="h-14 w-14 shrink-0 rounded-xl bg-bg" />
          )}
          <div className="min-w-0">
            <p className="truncate font-medium">
              {character.name}, {character.age}
            </p>
            <p className="truncate text-xs text-muted">/{character.slug}</p>
            <div className="mt-1 flex flex-wrap gap-1">
              {character.deleted_at ? (
                <Badge tone="bad">{t('admin.characters.deleted')}</Badge>
              ) : (
                <Badge tone={isPublic ? 'ok' : 'muted'}>
                  {t(isPublic ? 'admin.characters.public' : 'admin.characters.private')}
                </Badge>
              )}
              <Badge tone="muted">
                {t(character.is_official ? 'admin.characters.official' : 'admin.characters.custom')}
              </Badge>
              {!character.is_official && (
                <Badge tone={reviewTone[character.review_state]}>
                  {t(`admin.characters.review_${character.review_state}`)}
                </Badge>
              )}
            </div>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {character.is_official && (
            <Link to={`/admin/characters/${character.id}`} className={secondaryButton}>
              {t('admin.common.edit')}
            </Link>
          )}
          {character.is_official && !isPublic && (
            <button
              type="button"
              className={primaryButton}
              disabled={visibility.isPending}
              onClick={() =>
                visibility.mutate(
                  { id: character.id, visibility: 'public' },
                  { onError: (error) => showAlert(error.message, { type: 'error' }) },
                )
              }
            >
              {t('admin.characters.publish')}
            </button>
          )}
          {isPublic && !unpublishing && (
            <button type="button" className={dangerButton} onClick={() => setUnpublishing(true)}>
              {t('admin.characters.unpublish')}
            </button>
          )}
        </div>
      </div>
      {unpublishing && <UnpublishForm character={character} onDone={() => setUnpublishing(false)} />}
    </li>
  );
}

/** Import a Character Card (PNG or JSON) as an official character. */
function ImportCard() {
  const { t } = useTranslation();
  const importCard = useImportAdminCard();
  const [visibility, setVisibility] = useState<'public' | 'private'>('private');
  return (
    <div className="flex flex-wrap items-center gap-2">
      <select
        value={visibility}
        onChange={(event) => setVisibility(event.target.value as 'public' | 'private')}
        className="rounded-full border border-white/10 bg-bg px-3 py-2 text-sm"
        aria-label={t('admin.characters.fields.visibility')}
      >
        <option value="private">{t('admin.characters.private')}</option>
        <option value="public">{t('admin.characters.public')}</option>
      </select>
      <FileButton
        className={secondaryButton}
        disabled={importCard.isPending}
        accept="image/png,application/json,.json,.png"
        label={t('admin.characters.import')}
        onFile={(file) =>
          importCard.mutate(
            { file, visibility },
            {
              onSuccess: (character) =>
                showAlert(t('admin.characters.imported', { name: character.name }), { type: 'success' }),
              onError: (error) =>
                showAlert(
                  error instanceof ApiRequestError && Object.keys(error.fieldErrors).length
                    ? Object.values(error.fieldErrors).flat().join(' ')
                    : error.message,
                  { type: 'error' },
                ),
            },
          )
        }
      >
        {importCard.isPending ? t('admin.common.uploading') : t('admin.characters.import')}
      </FileButton>
    </div>
  );
}

function EditCharacter({ id }: { id: string }) {
  const { t } = useTranslation();
  const character = useAdminCharacter(id);
  return (
    <div className="flex flex-col gap-3">
      <Link to="/admin/characters" className="text-sm text-muted hover:text-fg">
        ← {t('admin.characters.all')}
      </Link>
      {id === 'new' ? (
        <CharacterEditor key="new" character={null} />
      ) : character.isPending ? (
        <Skeleton className="h-96" />
      ) : character.isError ? (
        <p className="text-muted">{t('admin.common.not_found')}</p>
      ) : (
        <CharacterEditor key={character.data.id} character={character.data} />
      )}
    </div>
  );
}

/**
 * `/admin/characters`: official characters with a search (or every public character, to
 * unpublish one), a card import; `/admin/characters/new` and `/admin/characters/<id>` edit one.
 */
export function CharactersSection({ itemId }: AdminSectionProps) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [scope, setScope] = useState<'official' | 'public'>('official');
  const list = useAdminCharacters({ q, scope: scope });
  if (itemId) return <EditCharacter id={itemId} />;
  return (
    <AdminSectionPage
      id="characters"
      title={t('admin.characters.title')}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <ImportCard />
          <Link to="/admin/characters/new" className={primaryButton} data-testid="admin-character-new">
            {t('admin.characters.new')}
          </Link>
        </div>
      }
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SegmentedControl
          value={scope}
          onChange={setScope}
          options={(['official', 'public'] as const).map((value) => ({
            value,
            label: t(`admin.characters.scope_${value}`),
          }))}
        />
        <SearchField
          value={q}
          onChange={setQ}
          label={t('admin.characters.search')}
          placeholder={t('admin.characters.search')}
          maxLength={100}
          testId="admin-characters-search"
          className="flex-1"
        />
      </div>
      <ContentList
        pending={list.isPending}
        error={list.error}
        items={list.data?.results}
        empty={t('admin.characters.empty')}
        render={(character) => <CharacterRow key={character.id} character={character} />}
      />
    </AdminSectionPage>
  );
}

export default CharactersSection;
