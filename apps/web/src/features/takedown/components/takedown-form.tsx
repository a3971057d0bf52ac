import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { parseTakedownItem, takedownBodySchema, type TakedownBody } from '@reverie/shared';
import { FormError } from '../../../components/ui/form-error';
import { Icon } from '../../../components/ui/icon';
import { SubmitButton } from '../../../components/ui/submit-button';
import { CheckboxRow } from '../../../components/ui/switch-row';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useCreateTakedown } from '../api/create-takedown';
import '../texts';

export interface TakedownFormValues {
  items: string;
  email: string;
  description: string;
  signature: string;
  statement: boolean;
}

type Field = keyof TakedownFormValues | 'form';
/** Field → `validation.*` keys or server texts, already worded. */
export type TakedownFormErrors = Partial<Record<Field, string>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The non-empty lines of the items box. */
const itemLines = (items: string) =>
  items
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The form's values as the API's body: a line that is a UUID is a message id, any other a link. */
export function toTakedownBody(values: TakedownFormValues): TakedownBody {
  const lines = itemLines(values.items);
  return {
    email: values.email.trim(),
    urls: lines.filter((line) => !UUID.test(line)),
    message_ids: lines.filter((line) => UUID.test(line)),
    description: values.description,
    signature: values.signature,
    statement: values.statement as true,
  };
}

/**
 * Checks the form as the server will (the shared schema, links on `siteOrigin`): answers the
 * errors by field, as `validation.*` keys; an item's error names its line.
 */
export function validateTakedownForm(
  values: TakedownFormValues,
  siteOrigin: string,
): { errors: TakedownFormErrors; lineErrors: { line: number; key: string }[] } {
  const errors: TakedownFormErrors = {};
  const lineErrors: { line: number; key: string }[] = [];
  const result = takedownBodySchema(siteOrigin).safeParse(toTakedownBody(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [field] = issue.path;
      const key = field === 'urls' || field === 'message_ids' ? 'items' : (field as Field);
      if (key in errors) continue;
      errors[key] = issue.message;
    }
  }
  // The schema checks the items only once the other fields pass: an empty list is named anyway.
  if (itemLines(values.items).length === 0) errors.items ??= 'takedown_items_required';
  // Name the lines: each line is checked the way the server reads it.
  itemLines(values.items).forEach((line, i) => {
    if (UUID.test(line)) return;
    const parsed = parseTakedownItem(line, siteOrigin);
    if (parsed === 'foreign') lineErrors.push({ line: i + 1, key: 'takedown_link_foreign' });
    else if (parsed === 'invalid' || parsed.kind === 'message')
      lineErrors.push({ line: i + 1, key: 'takedown_item_invalid' });
  });
  return { errors, lineErrors };
}

const inputClass = (invalid: boolean) =>
  `w-full rounded-xl border bg-bg/60 px-4 py-3 text-base outline-none transition placeholder:text-muted focus:border-primary focus:ring-2 focus:ring-primary/30 ${invalid ? 'border-red-400/70' : 'border-white/10'}`;

function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-300" data-field-error={id.replace(/^takedown-|-error$/g, '')}>
      {text}
    </p>
  );
}

/** A field of the form: its label, the control, a hint and its error (`${id}-error`). */
function Labelled({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && <p className="text-xs text-muted">{hint}</p>}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/**
 * The takedown request form (`/takedown`, TAKE IT DOWN Act): the content (links to this site
 * or message ids, one per line), the reporter's e-mail, a description and the good-faith
 * statement signed with a full name. Checked here as the server checks it; after sending it
 * shows the request's reference.
 */
export function TakedownForm({ siteOrigin }: { siteOrigin: string }) {
  const { t, i18n } = useTranslation();
  const empty: TakedownFormValues = { items: '', email: '', description: '', signature: '', statement: false };
  const [values, setValues] = useState<TakedownFormValues>(empty);
  const [errors, setErrors] = useState<TakedownFormErrors>({});
  const [lineErrors, setLineErrors] = useState<{ line: number; key: string }[]>([]);
  const [reference, setReference] = useState<string | null>(null);
  const mutation = useCreateTakedown();

  const text = (message: string | undefined) =>
    message && i18n.exists(`validation.${message}`) ? t(`validation.${message}`) : message;
  const set = <K extends keyof TakedownFormValues>(key: K, value: TakedownFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  /** What each text field shares: id, name, value, change and error state. */
  const bind = (name: 'email' | 'description' | 'signature') => ({
    id: `takedown-${name}`,
    name,
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(name, e.target.value),
    'aria-invalid': errors[name] ? true : undefined,
    className: inputClass(Boolean(errors[name])),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateTakedownForm(values, siteOrigin);
    setErrors(checked.errors);
    setLineErrors(checked.lineErrors);
    if (Object.keys(checked.errors).length > 0 || checked.lineErrors.length > 0) return;
    try {
      const created = await mutation.mutateAsync(toTakedownBody(values));
      setReference(created.reference);
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 429) {
        setErrors({ form: t('takedown.rate_limited') });
        return;
      }
      if (error instanceof ApiRequestError && error.status === 400) {
        const next: TakedownFormErrors = {};
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          const name = field.split('.')[0];
          const key = (name === 'urls' || name === 'message_ids' ? 'items' : name) as Field;
          if (messages[0] && !(key in next)) next[key] = messages[0];
        }
        setErrors(Object.keys(next).length ? next : { form: error.data?.detail ?? t('takedown.failed') });
        return;
      }
      setErrors({ form: t('takedown.failed') });
    }
  };

  if (reference) {
    return (
      <div className="rounded-2xl border border-white/10 bg-surface p-6" data-testid="takedown-sent">
        <div className="flex items-center gap-3">
          <Icon icon={CheckCircle2} size="lg" className="text-primary" />
          <h2 className="text-xl font-semibold">{t('takedown.sent_title')}</h2>
        </div>
        <p className="mt-4 text-sm text-muted">{t('takedown.reference_label')}</p>
        <p className="mt-1 font-mono text-2xl font-semibold tracking-wider" data-testid="takedown-reference">
          {reference}
        </p>
        <p className="mt-4 text-muted">{t('takedown.sent_body')}</p>
        <button
          type="button"
          className="mt-6 rounded-full border border-white/15 px-5 py-2 text-sm hover:bg-white/5"
          onClick={() => {
            setReference(null);
            setValues(empty);
          }}
        >
          {t('takedown.another')}
        </button>
      </div>
    );
  }

  const itemsError = errors.items ? text(errors.items) : undefined;
  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-5 rounded-2xl border border-white/10 bg-surface p-5 sm:p-6"
      data-testid="takedown-form"
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor="takedown-items" className="text-sm font-medium">
          {t('takedown.items_label')}
        </label>
        <p className="text-sm text-muted">{t('takedown.items_hint')}</p>
        <textarea
          id="takedown-items"
          name="items"
          rows={4}
          value={values.items}
          onChange={(e) => set('items', e.target.value)}
          placeholder={t('takedown.items_placeholder')}
          aria-invalid={itemsError || lineErrors.length ? true : undefined}
          aria-describedby="takedown-items-error"
          className={`${inputClass(Boolean(itemsError || lineErrors.length))} font-mono text-sm`}
        />
        <div id="takedown-items-error">
          {itemsError && <FieldError id="takedown-items-error-main" text={itemsError} />}
          {lineErrors.map((e) => (
            <p key={e.line} role="alert" className="text-sm text-red-300" data-field-error="items">
              {t('takedown.line_error', { line: String(e.line), message: t(`validation.${e.key}`) })}
            </p>
          ))}
        </div>
      </div>

      <Labelled
        id="takedown-email"
        label={t('takedown.email_label')}
        hint={t('takedown.email_hint')}
        error={text(errors.email)}
      >
        <input {...bind('email')} type="email" autoComplete="email" />
      </Labelled>

      <Labelled id="takedown-description" label={t('takedown.description_label')} error={text(errors.description)}>
        <textarea {...bind('description')} rows={5} placeholder={t('takedown.description_placeholder')} />
      </Labelled>

      <fieldset className="flex flex-col gap-3 rounded-xl border border-white/10 p-4">
        <legend className="px-1 text-sm font-medium">{t('takedown.statement_title')}</legend>
        <CheckboxRow
          name="statement"
          checked={values.statement}
          onChange={(checked) => set('statement', checked)}
          invalid={Boolean(errors.statement)}
          boxClassName="mt-1 h-4 w-4 shrink-0 accent-[var(--color-primary)]"
        >
          <span>{t('takedown.statement')}</span>
        </CheckboxRow>
        <FieldError id="takedown-statement-error" text={text(errors.statement)} />
        <Labelled id="takedown-signature" label={t('takedown.signature_label')} error={text(errors.signature)}>
          <input {...bind('signature')} autoComplete="name" />
        </Labelled>
      </fieldset>

      <FormError message={errors.form} />
      <SubmitButton busy={mutation.isPending} className="sm:w-auto sm:self-start">
        {mutation.isPending ? t('takedown.sending') : t('takedown.submit')}
      </SubmitButton>
    </form>
  );
}
