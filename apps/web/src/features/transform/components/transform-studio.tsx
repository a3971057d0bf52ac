import { useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Camera, ImagePlus, Loader2, ShieldCheck, Sparkles } from 'lucide-react';
import { IMAGE_MAX_BYTES, TRANSFORM_COST, type TransformStyle } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { FormError } from '../../../components/ui/form-error';
import { Icon } from '../../../components/ui/icon';
import { IconTextButton } from '../../../components/ui/icon-button';
import { CheckboxRow } from '../../../components/ui/switch-row';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { refetchProfile, setProfileData } from '../../../lib/profile';
import { waitForDesires } from '../../../lib/waiting-action';
import { getTransform, useTransform } from '../api/get-transform';
import { clearTransformDraft, readTransformDraft, writeTransformDraft } from '../draft';
import { transformKeys } from '../api/keys';
import { payTransform } from '../api/pay-transform';
import { previewTransform } from '../api/preview-transform';
import { uploadTransform } from '../api/upload-transform';
import { verifyTransform } from '../api/verify-transform';
import { mediaSrc } from '../../../lib/media';
import { PersonaDialog, type PersonaFields } from './persona-dialog';
import { StylePicker } from './style-picker';
import { TransformGallery } from './transform-gallery';
import { TransformResult } from './transform-result';
import '../texts';

export interface TransformStudioProps {
  isAuthorized: boolean;
  isPremium: boolean;
  /** A guest acted: sign up or log in, then back here. */
  onRequireAuth: () => void;
  /** 402: the buy-desires modal. */
  onNeedDesires: () => void;
  /** Creates a persona with the result as its photo (the route page passes the characters feature's call). */
  onCreatePersona?: (photo: File, fields: PersonaFields) => Promise<void>;
  defaultPersonaName?: string;
}

type Phase = 'idle' | 'uploading' | 'checking' | 'starting' | 'processing' | 'ready' | 'failed' | 'refused';
type PreviewState = 'idle' | 'loading' | 'ready' | 'failed';

/** One numbered step of the studio: a section named by its heading. */
function Step({
  id,
  title,
  className = 'flex flex-col gap-3',
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** What the page may say about an API failure: its code's text when known, else a general one. */
function problemText(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiRequestError && error.data?.detail && error.status > 0 && error.status < 500)
    return error.data.detail;
  return t('transform.error_generic');
}

/**
 * The style transform (docs/transform.md "Web"): a photo (file or camera), a style from eight
 * with live previews of that photo, the rights attestation, payment (402 opens the buy-desires
 * modal), progress while the job runs (polled), the result beside the original, and the
 * gallery of past transforms.
 */
export function TransformStudio({
  isAuthorized,
  isPremium,
  onRequireAuth,
  onNeedDesires,
  onCreatePersona,
  defaultPersonaName = '',
}: TransformStudioProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  // What the user did before a checkout or a reload (`draft.ts`): style, rights, the unpaid upload.
  const [draft] = useState(() => (isAuthorized ? readTransformDraft() : null));
  const [restoring, setRestoring] = useState(Boolean(draft?.id));
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoUrl, setPhotoUrl] = useState<string | null>(null);
  const [style, setStyle] = useState<TransformStyle>(draft?.style ?? 'anime');
  const [previews, setPreviews] = useState<Partial<Record<TransformStyle, string>>>({});
  const [previewState, setPreviewState] = useState<PreviewState>('idle');
  const [rights, setRights] = useState(draft?.rights ?? false);
  const [rightsError, setRightsError] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  /** A transform uploaded and verified but not paid (402): paying again does not upload again. */
  const [pending, setPending] = useState<{ id: string; style: TransformStyle; photo: File } | null>(null);
  const [watchId, setWatchId] = useState<string | null>(null);
  const [personaOpen, setPersonaOpen] = useState(false);
  const [canCapture, setCanCapture] = useState(false);
  const watched = useTransform(watchId);
  const [params] = useSearchParams();
  const shopOpen = params.get('pw') === '1';

  useEffect(() => {
    setCanCapture(window.matchMedia?.('(pointer: coarse)').matches ?? false);
  }, []);

  useEffect(() => {
    if (!photo) return setPhotoUrl(null);
    const url = URL.createObjectURL(photo);
    setPhotoUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const loadPreviews = async (file: File) => {
    setPreviews({});
    setPreviewState('loading');
    try {
      const answer = await previewTransform(file);
      setPreviews(Object.fromEntries(answer.previews.map((p) => [p.style, p.data_url])));
      setPreviewState('ready');
    } catch (error) {
      setPreviewState('failed');
      if (error instanceof ApiRequestError && error.status === 422) setPhase('refused');
      else if (error instanceof ApiRequestError && (error.status === 413 || error.status === 415))
        showAlert(problemText(error, t), { type: 'error' });
    }
  };

  // Back from a checkout, or reloaded: the photo is the unpaid upload the server keeps.
  useEffect(() => {
    const id = draft?.id;
    if (!id) return;
    let cancelled = false;
    void (async () => {
      try {
        const stored = await getTransform(id);
        if ((stored.state !== 'uploaded' && stored.state !== 'verified') || !stored.original_url)
          throw new Error('not waiting for payment');
        const blob = await (await fetch(mediaSrc(stored.original_url))).blob();
        if (cancelled) return;
        const file = new File([blob], 'photo.webp', { type: blob.type || 'image/webp' });
        setPhoto(file);
        if (stored.state === 'verified') setPending({ id, style: stored.style, photo: file });
        void loadPreviews(file);
      } catch {
        // Gone (paid elsewhere, swept after an hour, another account): only the choices stay.
      } finally {
        if (!cancelled) setRestoring(false);
      }
    })();
    return () => {
      cancelled = true;
    };
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Kept while a photo waits to be transformed; forgotten once it is paid or put away.
  const keepDraft = photo !== null && phase !== 'processing' && phase !== 'ready' && phase !== 'refused';
  useEffect(() => {
    if (restoring || !isAuthorized) return;
    if (keepDraft) writeTransformDraft({ style, rights, id: pending?.id ?? null });
    else clearTransformDraft();
  }, [restoring, isAuthorized, keepDraft, style, rights, pending]);

  // The shop opened over a chosen photo (the balance counter): the photo goes to the server now,
  // as an unpaid upload, so that it is still here after the checkout.
  useEffect(() => {
    if (!shopOpen || !isAuthorized || !photo || !rights || pending || phase !== 'idle' || restoring) return;
    let cancelled = false;
    void (async () => {
      try {
        const id = (await uploadTransform(photo, style)).id;
        await verifyTransform(id);
        if (!cancelled) setPending({ id, style, photo });
      } catch {
        // Paying later uploads it again.
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [shopOpen, isAuthorized, photo, rights, pending, phase, restoring, style]);

  // The job's end: the result, or a failure (refunded: the balance is read again).
  const watchedState = watched.data?.state;
  useEffect(() => {
    if (!watchedState || phase !== 'processing') return;
    if (watchedState === 'ready') {
      setPhase('ready');
      void client.invalidateQueries({ queryKey: transformKeys.list() });
    } else if (watchedState === 'failed') {
      setPhase('failed');
      void refetchProfile(client);
      void client.invalidateQueries({ queryKey: transformKeys.list() });
    }
  }, [watchedState, phase, client]);

  const busy = phase === 'uploading' || phase === 'checking' || phase === 'starting' || phase === 'processing';

  const pick = (input: HTMLInputElement | null) => {
    if (!isAuthorized) return onRequireAuth();
    input?.click();
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) return showAlert(t('transform.file_not_image'), { type: 'error' });
    if (file.size > IMAGE_MAX_BYTES) return showAlert(t('transform.file_too_large'), { type: 'error' });
    setPhoto(file);
    setPending(null);
    setWatchId(null);
    setPhase('idle');
    await loadPreviews(file);
  };

  const start = async () => {
    if (!isAuthorized) return onRequireAuth();
    if (!photo || busy) return;
    if (!rights) return setRightsError(true);
    try {
      let id = pending && pending.style === style && pending.photo === photo ? pending.id : null;
      if (!id) {
        setPhase('uploading');
        id = (await uploadTransform(photo, style)).id;
        setPhase('checking');
        await verifyTransform(id);
        setPending({ id, style, photo });
      }
      setPhase('starting');
      const paid = await payTransform(id);
      setPending(null);
      setProfileData(client, (profile) => ({ ...profile, num_tokens: paid.num_tokens }));
      client.setQueryData(transformKeys.one(id), undefined);
      setWatchId(id);
      setPhase('processing');
      void client.invalidateQueries({ queryKey: transformKeys.list() });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 402) {
        setPhase('idle');
        // The buy-desires modal offers the free daily claim first; claimed, the transform starts.
        waitForDesires({ from: 'transform', cost: TRANSFORM_COST, run: () => void startRef.current() });
        onNeedDesires();
      } else if (error instanceof ApiRequestError && error.status === 422) {
        setPending(null);
        setPhase('refused');
      } else {
        setPhase('idle');
        showAlert(problemText(error, t), { type: 'error' });
      }
    }
  };

  const startRef = useRef(start);
  startRef.current = start;

  const usePersona = async (fields: PersonaFields) => {
    const url = watched.data?.result_url;
    if (!url || !onCreatePersona) return;
    try {
      const blob = await (await fetch(mediaSrc(url))).blob();
      await onCreatePersona(new File([blob], 'persona.webp', { type: blob.type || 'image/webp' }), fields);
      setPersonaOpen(false);
      showAlert(t('transform.persona_created'));
    } catch (error) {
      showAlert(error instanceof ApiRequestError ? problemText(error, t) : t('transform.persona_failed'), {
        type: 'error',
      });
    }
  };

  const reset = () => {
    setPhoto(null);
    setPreviews({});
    setPreviewState('idle');
    setPending(null);
    setWatchId(null);
    setPhase('idle');
    setRights(false);
  };

  const payLabel = isPremium ? t('transform.pay_premium') : t('transform.pay', { count: TRANSFORM_COST });
  const stepLabel =
    phase === 'uploading'
      ? t('transform.uploading')
      : phase === 'checking'
        ? t('transform.checking')
        : phase === 'starting'
          ? t('transform.starting')
          : payLabel;

  return (
    <div className="flex flex-col gap-10">
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => void onFile(e)}
        data-testid="transform-file"
      />
      <input
        ref={cameraInput}
        type="file"
        accept="image/*"
        capture="environment"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => void onFile(e)}
      />

      {phase === 'ready' && watched.data ? (
        <div className="flex flex-col gap-4">
          <TransformResult
            transform={watched.data}
            onUseAsPersona={onCreatePersona ? () => setPersonaOpen(true) : undefined}
          />
          <button
            type="button"
            onClick={reset}
            className="self-start rounded-full border border-white/15 px-5 py-2.5 font-semibold hover:bg-white/5"
          >
            {t('transform.new_transform')}
          </button>
        </div>
      ) : (
        <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
          {/* 1. The photo */}
          <Step id="transform-photo" title={`1. ${t('transform.step_photo')}`}>
            <div className="overflow-hidden rounded-2xl border border-dashed border-white/20 bg-surface">
              {photoUrl ? (
                <img
                  src={photoUrl}
                  alt={t('transform.original_alt')}
                  className="max-h-[60vh] w-full object-contain"
                  data-testid="transform-photo"
                />
              ) : (
                <div className="flex aspect-[4/3] flex-col items-center justify-center gap-3 p-6 text-center">
                  <Icon icon={ImagePlus} size="xl" className="text-muted" />
                  {!isAuthorized && <p className="font-semibold">{t('transform.guest_title')}</p>}
                  <p className="text-sm text-muted">
                    {isAuthorized ? t('transform.photo_hint') : t('transform.guest_text')}
                  </p>
                </div>
              )}
            </div>
            <div className="flex flex-wrap gap-3">
              <IconTextButton
                icon={ImagePlus}
                onClick={() => pick(fileInput.current)}
                disabled={busy}
                className="flex items-center gap-2 rounded-full bg-primary px-5 py-2.5 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110 disabled:opacity-60"
                testId="transform-choose"
              >
                {!isAuthorized
                  ? t('transform.guest_button')
                  : photo
                    ? t('transform.change_photo')
                    : t('transform.choose_photo')}
              </IconTextButton>
              {isAuthorized && canCapture && (
                <IconTextButton
                  icon={Camera}
                  onClick={() => pick(cameraInput.current)}
                  disabled={busy}
                  className="flex items-center gap-2 rounded-full border border-white/15 px-5 py-2.5 font-semibold hover:bg-white/5 disabled:opacity-60"
                >
                  {t('transform.take_photo')}
                </IconTextButton>
              )}
            </div>
            <p className="flex items-start gap-2 text-xs text-muted">
              <Icon icon={ShieldCheck} size="sm" className="mt-0.5 shrink-0" />
              {t('transform.privacy')}
            </p>
          </Step>

          <div className="flex flex-col gap-8">
            {/* 2. The style */}
            <Step id="transform-style" title={`2. ${t('transform.step_style')}`}>
              {previewState === 'loading' && <p className="text-sm text-muted">{t('transform.previews_loading')}</p>}
              {previewState === 'failed' && phase !== 'refused' && (
                <p className="text-sm text-muted">{t('transform.previews_failed')}</p>
              )}
              <StylePicker
                value={style}
                onChange={setStyle}
                previews={previews}
                loading={previewState === 'loading'}
                disabled={busy}
              />
            </Step>

            {/* 3. Rights, payment, progress */}
            <Step
              id="transform-confirm"
              title={`3. ${t('transform.step_confirm')}`}
              className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-surface p-4 sm:p-6"
            >
              <FormError message={phase === 'refused' ? t('transform.refused') : null} testId="transform-refused" />
              {phase === 'failed' && (
                <p
                  role="alert"
                  className="rounded-xl border border-amber-400/40 bg-amber-950/50 px-4 py-3 text-sm text-amber-100"
                  data-testid="transform-failed"
                >
                  {t('transform.failed')}
                </p>
              )}
              <CheckboxRow
                checked={rights}
                onChange={(checked) => {
                  setRights(checked);
                  setRightsError(false);
                }}
                disabled={busy}
                boxClassName="mt-0.5 h-5 w-5 shrink-0 accent-[var(--color-primary)]"
                testId="transform-rights"
                invalid={rightsError}
                describedBy={rightsError ? 'transform-rights-error' : undefined}
              >
                <span>{t('transform.rights_label')}</span>
              </CheckboxRow>
              {rightsError && (
                <p id="transform-rights-error" role="alert" className="text-sm text-red-300">
                  {t('transform.rights_required')}
                </p>
              )}
              {phase === 'processing' ? (
                <div
                  className="flex items-center gap-3 rounded-xl bg-white/5 px-4 py-3"
                  role="status"
                  data-testid="transform-processing"
                >
                  <Icon icon={Loader2} size="md" className="animate-spin text-primary" />
                  <span className="text-sm">{t('transform.processing')}</span>
                </div>
              ) : (
                <button
                  type="button"
                  onClick={() => void start()}
                  disabled={busy || restoring || (isAuthorized && (!photo || phase === 'refused'))}
                  aria-busy={busy || undefined}
                  className="flex w-full items-center justify-center gap-2 rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 transition hover:brightness-110 disabled:opacity-60 sm:w-auto sm:self-start"
                  data-testid="transform-pay"
                >
                  <Icon icon={busy ? Loader2 : Sparkles} size="sm" className={busy ? 'animate-spin' : ''} />
                  {stepLabel}
                </button>
              )}
            </Step>
          </div>
        </div>
      )}

      {isAuthorized && (
        <TransformGallery
          openId={phase === 'ready' ? watchId : null}
          onOpen={(id) => {
            setWatchId(id);
            setPhase('processing');
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      )}

      {onCreatePersona && (
        <PersonaDialog
          open={personaOpen}
          onClose={() => setPersonaOpen(false)}
          onSubmit={usePersona}
          defaultName={defaultPersonaName}
        />
      )}
    </div>
  );
}
