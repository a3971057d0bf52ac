import '../texts';
import { useState, type FormEvent } from 'react';
import { MEMORY_TEXT_MAX, type Memory, type MemoryCreateBody, type MemoryKind } from '@reverie/shared';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { ErrorAndCount, FormError } from '../../../components/ui/form-error';
import { ChoiceButtons } from '../../../components/ui/segmented-control';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { KIND_ICONS, KIND_ORDER } from './kinds';

/** What the form saves: the text, the kind and a shared moment's day. */
export type MemoryFields = Pick<MemoryCreateBody, 'text' | 'kind'> & { event_date: string | null };

/** A failed save's message: the server's, else "That didn't work". */
export function failureMessage(failure: unknown, fallback: string): string {
  return failure instanceof ApiRequestError && failure.status !== 0 && failure.data?.detail
    ? failure.data.detail
    : fallback;
}

function MemoryForm({
  name,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  name: string;
  initial: MemoryFields;
  submitLabel: string;
  onSubmit: (fields: MemoryFields) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial.text);
  const [kind, setKind] = useState<MemoryKind>(initial.kind);
  const [day, setDay] = useState(initial.event_date ?? '');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const trimmed = text.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return setError(t('memories.required'));
    setPending(true);
    setFailure(null);
    try {
      await onSubmit({ text: trimmed, kind, event_date: kind === 'event' && day ? day : null });
    } catch (caught) {
      const field = caught instanceof ApiRequestError ? caught.fieldErrors.text?.[0] : undefined;
      // A field's message is the server's text; a bare code (e.g. `memory_refused`) gives way to its detail.
      if (field) setError(/^[a-z_]+$/.test(field) ? failureMessage(caught, t('memories.failed')) : field);
      else setFailure(failureMessage(caught, t('memories.failed')));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4" data-testid="memory-form">
      <label className="flex flex-col gap-1.5 text-sm">
        <span className="font-medium">{t('memories.field_text')}</span>
        <textarea
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
          }}
          maxLength={MEMORY_TEXT_MAX}
          rows={4}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'memory-text-error' : undefined}
          data-testid="memory-text-field"
          className="min-h-28 resize-y rounded-xl border border-white/10 bg-bg px-3 py-2 leading-relaxed focus:border-primary/60 focus:outline-none"
        />
      </label>
      <ErrorAndCount
        error={error}
        errorId="memory-text-error"
        count={t('memories.char_count', { used: text.length, max: MEMORY_TEXT_MAX })}
        className="-mt-3"
      />
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1.5 font-medium">{t('memories.field_kind')}</legend>
        <ChoiceButtons
          // In the order of the page's groups.
          options={KIND_ORDER.map((option) => ({
            value: option,
            label: (
              <>
                <Icon icon={KIND_ICONS[option]} size="sm" />
                {t(`memories.choice.${option}`, { name })}
              </>
            ),
          }))}
          value={kind}
          onChange={setKind}
          label={t('memories.field_kind')}
          testId={(option) => `memory-kind-${option}`}
          className="flex flex-wrap gap-2"
          buttonClass={(chosen) =>
            `flex items-center gap-1.5 rounded-full border px-3 py-1.5 ${
              chosen
                ? 'border-primary bg-primary/15 text-fg'
                : 'border-white/15 text-muted hover:border-white/30 hover:text-fg'
            }`
          }
        />
      </fieldset>
      {kind === 'event' && (
        <label className="flex flex-col gap-1.5 text-sm">
          <span className="font-medium">
            {t('memories.field_date')} <span className="font-normal text-muted">({t('memories.field_date_hint')})</span>
          </span>
          <input
            type="date"
            value={day}
            onChange={(event) => setDay(event.target.value)}
            data-testid="memory-date-field"
            className="w-48 rounded-xl border border-white/10 bg-bg px-3 py-2 [color-scheme:dark] focus:border-primary/60 focus:outline-none"
          />
        </label>
      )}
      <FormError message={failure} testId="memory-form-error" />
      <DialogActions
        cancelLabel={t('memories.cancel')}
        onCancel={onCancel}
        actionLabel={submitLabel}
        disabled={pending}
        testId="memory-save"
      />
    </form>
  );
}

/**
 * Adds a memory by hand (`memory` null) or corrects one: its text, what it is about and, for a
 * shared moment, its day. A correction is a new revision; the old wording stays in the history.
 */
export function MemoryFormDialog({
  open,
  name,
  memory,
  onSubmit,
  onClose,
}: {
  open: boolean;
  /** The character's name. */
  name: string;
  /** The memory corrected; null adds one. */
  memory: Memory | null;
  onSubmit: (fields: MemoryFields) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const initial: MemoryFields = memory
    ? { text: memory.text, kind: memory.kind, event_date: memory.event_date }
    : { text: '', kind: 'user', event_date: null };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={memory ? t('memories.edit_title') : t('memories.add_title')}
      description={memory ? t('memories.edit_text', { name }) : t('memories.add_text', { name })}
    >
      {open && (
        <MemoryForm
          key={memory?.id ?? 'new'}
          name={name}
          initial={initial}
          submitLabel={t('memories.save')}
          onSubmit={onSubmit}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}
