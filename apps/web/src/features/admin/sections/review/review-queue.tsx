import '../../../../lib/error-texts';
import '../../texts';
import { useState } from 'react';
import type { AdminCharacter, Locale } from '@reverie/shared';
import { showAlert } from '../../../../components/ui/alerts';
import { ApiRequestError } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { useTranslation } from '../../../../lib/i18n';
import { ReasonForm } from '../../components/reason-form';
import { AdminSectionPage } from '../../components/admin-section-heading';
import { useDecideReview } from '../../api/decide-review';
import { useReviewQueue } from '../../api/get-review-queue';
import { Badge, cardClass, ContentList, dangerButton, primaryButton } from '../../components/content-ui';

/** A picture of a character under review; one the nudity check flagged stays blurred until clicked. */
function ReviewPicture({ url, explicit, alt }: { url: string; explicit: boolean; alt: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(!explicit);
  return (
    <button
      type="button"
      onClick={() => setShown(true)}
      className="relative h-24 w-20 shrink-0 overflow-hidden rounded-xl bg-bg"
      aria-label={shown ? alt : t('admin.review.show_explicit')}
    >
      <img src={url} alt={alt} className={`h-full w-full object-cover ${shown ? '' : 'blur-xl'}`} />
      {explicit && (
        <span className="absolute inset-x-1 bottom-1 rounded bg-black/70 px-1 text-[10px] text-amber-200">
          {t('admin.review.explicit')}
        </span>
      )}
    </button>
  );
}

/** Reject: the reason is required (the author gets it by e-mail and sees it on the character). */
function RejectForm({ character, onDone }: { character: AdminCharacter; onDone: () => void }) {
  const { t } = useTranslation();
  const decide = useDecideReview();
  return (
    <ReasonForm
      id={`reject-${character.id}`}
      testId="review-reject"
      inline
      formTestId="review-reject-form"
      className="mt-3 flex flex-col gap-3"
      reasonLabel={t('admin.review.reason')}
      reasonHint={t('admin.review.reason_hint')}
      requiredText={t('admin.review.reason_required')}
      maxLength={1000}
      confirmLabel={t('admin.review.reject_confirm')}
      danger
      errorText={(failure) =>
        failure instanceof ApiRequestError
          ? (failure.fieldErrors.reason?.[0] ?? failure.message)
          : t('errors.something_went_wrong')
      }
      onConfirm={async (reason) => {
        await decide.mutateAsync({ id: character.id, approve: false, reason });
        showAlert(t('admin.review.rejected', { name: character.name }), { type: 'success' });
      }}
      onDone={onDone}
      onCancel={onDone}
    />
  );
}

function ReviewCard({ character }: { character: AdminCharacter }) {
  const { t, i18n } = useTranslation();
  const decide = useDecideReview();
  const [rejecting, setRejecting] = useState(false);
  const locale = i18n.language as Locale;
  const pictures = character.pictures.length
    ? character.pictures
    : character.avatar_url
      ? [{ id: 'avatar', url: character.avatar_url, explicit: character.avatar_explicit }]
      : [];
  const approve = () =>
    decide.mutate(
      { id: character.id, approve: true },
      {
        onSuccess: () => showAlert(t('admin.review.approved', { name: character.name }), { type: 'success' }),
        onError: (failure) => showAlert(failure.message, { type: 'error' }),
      },
    );
  return (
    <li className={cardClass} data-testid={`review-item-${character.id}`}>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div className="flex gap-2 overflow-x-auto sm:w-48 sm:flex-wrap">
          {pictures.map((picture) => (
            <ReviewPicture key={picture.id} url={picture.url} explicit={picture.explicit} alt={character.name} />
          ))}
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-lg font-semibold">
              {character.name}, {character.age}
            </h3>
            {character.avatar_explicit && <Badge tone="warn">{t('admin.review.explicit')}</Badge>}
            {character.tags.map((tag) => (
              <Badge key={tag} tone="muted">
                {tag}
              </Badge>
            ))}
          </div>
          <p className="mt-1 text-xs text-muted">
            {t('admin.review.by', {
              author: character.author ? `${character.author.name} <${character.author.email}>` : '—',
              date: formatDate(character.created_at, locale),
            })}
          </p>
          <dl className="mt-3 grid gap-2 text-sm">
            {(
              [
                ['description', character.description],
                ['greeting', character.greeting],
                ['scenario', character.scenario],
                ['personality', character.personality.join(', ')],
                ['occupation', character.occupation.join(', ')],
              ] as const
            )
              .filter(([, value]) => value)
              .map(([key, value]) => (
                <div key={key}>
                  <dt className="text-xs text-muted">{t(`admin.characters.fields.${key}`)}</dt>
                  <dd className="break-words whitespace-pre-wrap">{value}</dd>
                </div>
              ))}
          </dl>
          {rejecting ? (
            <RejectForm character={character} onDone={() => setRejecting(false)} />
          ) : (
            <div className="mt-4 flex flex-wrap gap-2">
              <button
                type="button"
                className={primaryButton}
                onClick={approve}
                disabled={decide.isPending}
                data-testid="review-approve"
              >
                {t('admin.review.approve')}
              </button>
              <button
                type="button"
                className={dangerButton}
                onClick={() => setRejecting(true)}
                data-testid="review-reject"
              >
                {t('admin.review.reject')}
              </button>
            </div>
          )}
        </div>
      </div>
    </li>
  );
}

/** `/admin/review`: public custom characters waiting for a review, oldest first. */
export function ReviewQueue() {
  const { t } = useTranslation();
  const queue = useReviewQueue();
  return (
    <AdminSectionPage id="review" title={t('admin.review.title')} intro={t('admin.review.intro')}>
      <ContentList
        pending={queue.isPending}
        error={queue.error}
        items={queue.data}
        empty={t('admin.review.empty')}
        emptyTestId="review-empty"
        className="flex flex-col gap-3"
        render={(character) => <ReviewCard key={character.id} character={character} />}
      />
    </AdminSectionPage>
  );
}

export default ReviewQueue;
