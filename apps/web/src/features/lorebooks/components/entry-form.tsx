import '../texts';
import { useState, type FormEvent } from 'react';
import {
  LORE_COMMENT_MAX,
  LORE_CONTENT_MAX,
  LORE_DEPTH_MAX,
  LORE_ORDER_MAX,
  LORE_POSITIONS,
  SELECTIVE_LOGICS,
  type LoreEntry,
  type LoreEntryBody,
} from '@reverie/shared';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { FormError } from '../../../components/ui/form-error';
import { toApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { Field, inputClass, NumberInput, TextInput, Toggle } from './fields';

/** Keys as the field shows them: comma-separated. */
const keysText = (keys: string[]) => keys.join(', ');
const keysOf = (text: string) =>
  text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

type Errors = Record<string, string>;

/** The server's field messages by form field (`keys.3` → `keys`). */
function fieldErrors(error: unknown): { fields: Errors; form: string | null } {
  const api = toApiRequestError(error);
  const fields: Errors = {};
  for (const [path, messages] of Object.entries(api.fieldErrors)) {
    const field = path.split('.')[0]!;
    fields[field] ??= messages[0] ?? '';
  }
  return { fields, form: Object.keys(fields).length ? null : api.message };
}

/** A new entry's fields. */
export const NEW_ENTRY: LoreEntryBody = {
  keys: [],
  secondary_keys: [],
  selective_logic: 'and_any',
  content: '',
  comment: '',
  constant: false,
  enabled: true,
  order: 100,
  position: 'after_char',
  depth: 4,
  probability: 100,
  case_sensitive: false,
  use_regex: false,
};

/**
 * One entry's form (docs/lorebooks.md "Entries"): what it is called, its keys and content up
 * front; secondary keys, order, position, depth, chance and matching under "Advanced".
 */
export function EntryForm({
  initial,
  onSave,
  onCancel,
  pending,
}: {
  initial: LoreEntry | LoreEntryBody;
  onSave: (body: Required<LoreEntryBody>) => Promise<void>;
  onCancel: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState(initial.comment ?? '');
  const [keys, setKeys] = useState(keysText(initial.keys ?? []));
  const [content, setContent] = useState(initial.content);
  const [enabled, setEnabled] = useState(initial.enabled ?? true);
  const [constant, setConstant] = useState(initial.constant ?? false);
  const [secondary, setSecondary] = useState(keysText(initial.secondary_keys ?? []));
  const [logic, setLogic] = useState(initial.selective_logic ?? 'and_any');
  const [order, setOrder] = useState(String(initial.order ?? 100));
  const [position, setPosition] = useState(initial.position ?? 'after_char');
  const [depth, setDepth] = useState(String(initial.depth ?? 4));
  const [probability, setProbability] = useState(String(initial.probability ?? 100));
  const [caseSensitive, setCaseSensitive] = useState(initial.case_sensitive ?? false);
  const [useRegex, setUseRegex] = useState(initial.use_regex ?? false);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const number = (value: string) => (/^-?\d+$/.test(value.trim()) ? Number(value) : NaN);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Errors = {};
    if (!content.trim()) local.content = t('validation.required');
    if (!constant && keysOf(keys).length === 0) local.keys = t('lorebooks.keys_required');
    // Out of range: the range said, not a bare "invalid value".
    const range = (min: number, max: number) => t('validation.number_range', { min, max });
    if (!(number(order) >= -LORE_ORDER_MAX && number(order) <= LORE_ORDER_MAX))
      local.order = range(-LORE_ORDER_MAX, LORE_ORDER_MAX);
    if (!(number(depth) >= 0 && number(depth) <= LORE_DEPTH_MAX)) local.depth = range(0, LORE_DEPTH_MAX);
    if (!(number(probability) >= 0 && number(probability) <= 100)) local.probability = range(0, 100);
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    try {
      await onSave({
        comment,
        keys: keysOf(keys),
        content,
        enabled,
        constant,
        secondary_keys: keysOf(secondary),
        selective_logic: logic,
        order: number(order),
        position,
        depth: number(depth),
        probability: number(probability),
        case_sensitive: caseSensitive,
        use_regex: useRegex,
      });
    } catch (error) {
      const parsed = fieldErrors(error);
      setErrors(parsed.fields);
      setFormError(parsed.form);
    }
  };

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-4"
      data-testid="lore-entry-form"
      noValidate
    >
      <Field label={t('lorebooks.comment')} error={errors.comment} help={t('lorebooks.comment_help')}>
        <TextInput value={comment} onChange={setComment} maxLength={LORE_COMMENT_MAX} testId="lore-entry-comment" />
      </Field>
      <Field label={t('lorebooks.keys')} error={errors.keys} help={t('lorebooks.keys_help')}>
        <TextInput value={keys} onChange={setKeys} invalid={Boolean(errors.keys)} testId="lore-entry-keys" />
      </Field>
      <Field label={t('lorebooks.content')} error={errors.content} help={t('lorebooks.content_help')}>
        <textarea
          value={content}
          onChange={(event) => setContent(event.target.value)}
          maxLength={LORE_CONTENT_MAX}
          rows={5}
          className={`min-h-28 resize-y ${inputClass}`}
          data-testid="lore-entry-content"
          aria-invalid={errors.content ? true : undefined}
        />
      </Field>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <Toggle label={t('lorebooks.enabled')} checked={enabled} onChange={setEnabled} testId="lore-entry-enabled" />
        <Toggle
          label={t('lorebooks.constant')}
          checked={constant}
          onChange={setConstant}
          testId="lore-entry-constant"
        />
      </div>
      <details className="rounded-xl border border-white/10 px-3 py-2" data-testid="lore-entry-advanced">
        <summary className="cursor-pointer text-sm font-medium">{t('lorebooks.advanced')}</summary>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Field
              label={t('lorebooks.secondary_keys')}
              error={errors.secondary_keys}
              help={t('lorebooks.secondary_help')}
            >
              <TextInput value={secondary} onChange={setSecondary} testId="lore-entry-secondary" />
            </Field>
          </div>
          <Field label={t('lorebooks.logic')}>
            <select
              value={logic}
              onChange={(event) => setLogic(event.target.value as typeof logic)}
              className={inputClass}
            >
              {SELECTIVE_LOGICS.map((value) => (
                <option key={value} value={value}>
                  {t(`lorebooks.logic_${value}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('lorebooks.position')}>
            <select
              value={position}
              onChange={(event) => setPosition(event.target.value as typeof position)}
              className={inputClass}
              data-testid="lore-entry-position"
            >
              {LORE_POSITIONS.map((value) => (
                <option key={value} value={value}>
                  {t(`lorebooks.position_${value}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('lorebooks.depth')} error={errors.depth} help={t('lorebooks.depth_help')}>
            <NumberInput min={0} max={LORE_DEPTH_MAX} value={depth} onChange={setDepth} />
          </Field>
          <Field label={t('lorebooks.order')} error={errors.order} help={t('lorebooks.order_help')}>
            <NumberInput value={order} onChange={setOrder} />
          </Field>
          <Field label={t('lorebooks.probability')} error={errors.probability} help={t('lorebooks.probability_help')}>
            <NumberInput
              min={0}
              max={100}
              value={probability}
              onChange={setProbability}
              testId="lore-entry-probability"
            />
          </Field>
          <div className="flex flex-col gap-2 sm:col-span-2">
            <Toggle label={t('lorebooks.case_sensitive')} checked={caseSensitive} onChange={setCaseSensitive} />
            <Toggle label={t('lorebooks.use_regex')} checked={useRegex} onChange={setUseRegex} />
          </div>
        </div>
      </details>
      <FormError message={formError} />
      <DialogActions
        cancelLabel={t('lorebooks.cancel')}
        onCancel={onCancel}
        actionLabel={t('lorebooks.save')}
        disabled={pending}
        testId="lore-entry-save"
      />
    </form>
  );
}
