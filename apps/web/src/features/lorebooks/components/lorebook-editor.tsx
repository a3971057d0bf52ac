import '../../../lib/error-texts';
import '../texts';
import { useState, type FormEvent } from 'react';
import { Download, Plus, Upload } from 'lucide-react';
import {
  LORE_REGEX_KEYS_TESTED,
  LORE_SCAN_DEPTH_MAX,
  LORE_TOKEN_BUDGET_MAX,
  LOREBOOK_DESCRIPTION_MAX,
  LOREBOOK_NAME_MAX,
  type LoreEntry,
  type LoreEntryBody,
  type Lorebook,
  regexKeyCount,
} from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { outlineButtonClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui/dialog-actions';
import { IconTextButton } from '../../../components/ui/icon-button';
import { FormError } from '../../../components/ui/form-error';
import { Modal } from '../../../components/ui/modal';
import { CheckboxRow } from '../../../components/ui/switch-row';
import { toApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { lorebookCalls, useLorebookWrite } from '../api/book-writes';
import { downloadJson, importErrorText, importedText, readJsonFile } from '../files';
import { EntryForm, NEW_ENTRY } from './entry-form';
import { Field, ImportButton, inputClass, NumberInput, RowDeleteButton, TextInput } from './fields';

/** The book's own settings: name, description, scan depth, token budget, and for a user's book whether it is global. */
function BookSettings({ book }: { book: Lorebook }) {
  const { t } = useTranslation();
  const save = useLorebookWrite((body: Parameters<typeof lorebookCalls.update>[1]) =>
    lorebookCalls.update(book.id, body),
  );
  const [name, setName] = useState(book.name);
  const [description, setDescription] = useState(book.description);
  const [scanDepth, setScanDepth] = useState(String(book.scan_depth));
  const [budget, setBudget] = useState(String(book.token_budget));
  const [global, setGlobal] = useState(book.global);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = t('validation.required');
    const depth = Number(scanDepth);
    const tokens = Number(budget);
    if (!(Number.isInteger(depth) && depth >= 1 && depth <= LORE_SCAN_DEPTH_MAX))
      local.scan_depth = t('validation.number_range', { min: 1, max: LORE_SCAN_DEPTH_MAX });
    if (!(Number.isInteger(tokens) && tokens >= 0 && tokens <= LORE_TOKEN_BUDGET_MAX))
      local.token_budget = t('validation.number_range', { min: 0, max: LORE_TOKEN_BUDGET_MAX });
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await save.mutateAsync({
        name,
        description,
        scan_depth: depth,
        token_budget: tokens,
        ...(book.character ? {} : { global }),
      });
      showAlert(t('lorebooks.saved'));
    } catch (error) {
      const api = toApiRequestError(error);
      setErrors(Object.fromEntries(Object.entries(api.fieldErrors).map(([k, v]) => [k, v[0] ?? ''])));
      if (!Object.keys(api.fieldErrors).length) showAlert(api.message, { type: 'error' });
    }
  };
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      className="grid gap-4 rounded-2xl border border-white/10 p-4 sm:grid-cols-2"
      data-testid="lorebook-settings"
      noValidate
    >
      <Field label={t('lorebooks.name')} error={errors.name} className="sm:col-span-2">
        <TextInput value={name} onChange={setName} maxLength={LOREBOOK_NAME_MAX} testId="lorebook-name" />
      </Field>
      <Field label={t('lorebooks.description')} className="sm:col-span-2">
        <textarea
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={LOREBOOK_DESCRIPTION_MAX}
          rows={2}
          className={inputClass}
        />
      </Field>
      <Field label={t('lorebooks.scan_depth')} error={errors.scan_depth} help={t('lorebooks.scan_depth_help')}>
        <NumberInput min={1} max={LORE_SCAN_DEPTH_MAX} value={scanDepth} onChange={setScanDepth} />
      </Field>
      <Field label={t('lorebooks.token_budget')} error={errors.token_budget} help={t('lorebooks.token_budget_help')}>
        <NumberInput min={0} max={LORE_TOKEN_BUDGET_MAX} value={budget} onChange={setBudget} />
      </Field>
      {!book.character && (
        <CheckboxRow
          checked={global}
          onChange={setGlobal}
          className="flex items-start gap-2 text-sm sm:col-span-2"
          testId="lorebook-global"
        >
          <span>
            <span className="font-medium">{t('lorebooks.global')}</span>
            <span className="block text-xs text-muted">{t('lorebooks.global_help')}</span>
          </span>
        </CheckboxRow>
      )}
      <div className="flex justify-end sm:col-span-2">
        <button type="submit" disabled={save.isPending} className={primaryButtonClass} data-testid="lorebook-save">
          {t('lorebooks.save')}
        </button>
      </div>
    </form>
  );
}

/** Import into the book (adding or replacing its entries) and export as World Info or a card's book. */
function BookFiles({ book }: { book: Lorebook }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const importInto = useLorebookWrite(({ data, mode }: { data: Record<string, unknown>; mode: 'append' | 'replace' }) =>
    lorebookCalls.importInto(book.id, data, mode),
  );
  const onFile = async (picked: File) => {
    const data = await readJsonFile(picked);
    if (!data) showAlert(t('errors.lorebook_import_invalid'), { type: 'error' });
    else setFile(data);
  };
  const run = async (mode: 'append' | 'replace') => {
    if (!file) return;
    setError(null);
    try {
      const saved = await importInto.mutateAsync({ data: file, mode });
      setFile(null);
      showAlert(importedText(saved, t));
    } catch (failure) {
      setError(importErrorText(toApiRequestError(failure), file, t));
    }
  };
  const exportAs = async (format: 'world_info' | 'character_book') => {
    try {
      const data = await lorebookCalls.export(book.id, format);
      downloadJson(data, `${book.name || 'lorebook'}${format === 'world_info' ? '' : '.character_book'}.json`);
    } catch (failure) {
      showAlert(toApiRequestError(failure).message, { type: 'error' });
    }
  };
  return (
    <div className="flex flex-wrap gap-2" data-testid="lorebook-files">
      <ImportButton onFile={onFile} label={t('lorebooks.import')} testId="lorebook-import-into" icon={Upload} />
      <IconTextButton
        icon={Download}
        className={outlineButtonClass}
        onClick={() => void exportAs('world_info')}
        testId="lorebook-export"
      >
        {t('lorebooks.export_world_info')}
      </IconTextButton>
      <IconTextButton
        icon={Download}
        className={outlineButtonClass}
        onClick={() => void exportAs('character_book')}
        testId="lorebook-export-card"
      >
        {t('lorebooks.export_card_book')}
      </IconTextButton>
      <Modal
        open={file !== null}
        onClose={() => setFile(null)}
        title={t('lorebooks.import_title')}
        description={t('lorebooks.import_text')}
      >
        <div className="flex flex-col gap-3">
          <FormError message={error} />
          {/* Cancel, then the two ways to import (DialogActions' order and looks); on a phone one
              above the other, full width, the main one on top. */}
          <div
            className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end"
            data-testid="lorebook-import-actions"
          >
            <button type="button" className={secondaryButtonClass} onClick={() => setFile(null)}>
              {t('lorebooks.cancel')}
            </button>
            <button
              type="button"
              className={`${outlineButtonClass.replace('self-start', 'justify-center')} disabled:opacity-50`}
              disabled={importInto.isPending}
              onClick={() => void run('replace')}
              data-testid="lorebook-import-replace"
            >
              {t('lorebooks.import_replace')}
            </button>
            <button
              type="button"
              disabled={importInto.isPending}
              onClick={() => void run('append')}
              className={primaryButtonClass}
              data-testid="lorebook-import-append"
            >
              {t('lorebooks.import_append')}
            </button>
          </div>
        </div>
      </Modal>
    </div>
  );
}

/** One entry in the list: what it is called, its keys, and its marks; tap to edit. */
function EntryRow({ entry, onEdit, onDelete }: { entry: LoreEntry; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-start gap-3 rounded-xl border border-white/10 p-3" data-testid="lore-entry">
      <button type="button" onClick={onEdit} className="min-w-0 flex-1 text-left">
        <span className="block truncate font-medium">{entry.comment || entry.keys[0] || t('lorebooks.untitled')}</span>
        <span className="block truncate text-xs text-muted">
          {entry.constant ? t('lorebooks.constant') : entry.keys.join(', ')}
        </span>
        <span className="mt-1 line-clamp-2 block text-sm text-muted">{entry.content}</span>
        <span className="mt-1 flex flex-wrap gap-1 text-[0.7rem]">
          {!entry.enabled && <span className="rounded-full bg-white/10 px-2 py-0.5">{t('lorebooks.disabled')}</span>}
          {entry.probability < 100 && (
            <span className="rounded-full bg-white/10 px-2 py-0.5">
              {t('lorebooks.chance', { value: entry.probability })}
            </span>
          )}
          <span className="rounded-full bg-white/10 px-2 py-0.5">
            {entry.position === 'at_depth'
              ? t('lorebooks.position_at_depth_n', { depth: entry.depth })
              : t(`lorebooks.position_${entry.position}`)}
          </span>
        </span>
      </button>
      <RowDeleteButton label={t('lorebooks.delete')} onClick={onDelete} testId="lore-entry-delete" />
    </li>
  );
}

/**
 * A lorebook's editor (docs/lorebooks.md): its settings, files, and entries — add, edit in a
 * dialog (the advanced fields folded), delete after a confirmation.
 */
export function LorebookEditor({ book }: { book: Lorebook }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<LoreEntry | 'new' | null>(null);
  const [deleting, setDeleting] = useState<LoreEntry | null>(null);
  const create = useLorebookWrite((body: LoreEntryBody) => lorebookCalls.createEntry(book.id, body));
  const update = useLorebookWrite(({ id, body }: { id: string; body: LoreEntryBody }) =>
    lorebookCalls.updateEntry(book.id, id, body),
  );
  const remove = useLorebookWrite((id: string) => lorebookCalls.removeEntry(book.id, id));
  const save = async (body: LoreEntryBody) => {
    if (editing === 'new') await create.mutateAsync(body);
    else if (editing) await update.mutateAsync({ id: editing.id, body });
    setEditing(null);
    showAlert(t('lorebooks.entry_saved'));
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      setDeleting(null);
    } catch (failure) {
      showAlert(toApiRequestError(failure).message, { type: 'error' });
    }
  };
  const regexKeys = regexKeyCount(book.entries);
  return (
    <div className="flex flex-col gap-5" data-testid="lorebook-editor">
      <BookSettings key={`${book.id}:${book.version}`} book={book} />
      <BookFiles book={book} />
      <section className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 className="text-lg font-semibold">
            {t('lorebooks.entries')}{' '}
            <span className="text-sm font-normal text-muted tabular-nums">{book.entries.length}</span>
          </h2>
          <IconTextButton
            icon={Plus}
            onClick={() => setEditing('new')}
            className={`flex shrink-0 items-center gap-1.5 ${primaryButtonClass}`}
            testId="lore-entry-add"
          >
            {t('lorebooks.add_entry')}
          </IconTextButton>
        </div>
        {regexKeys > LORE_REGEX_KEYS_TESTED && (
          <p
            role="note"
            className="rounded-xl border border-amber-400/30 bg-amber-400/10 p-3 text-sm"
            data-testid="lore-regex-over"
          >
            {t('lorebooks.regex_keys_over', { count: regexKeys, limit: LORE_REGEX_KEYS_TESTED })}
          </p>
        )}
        {book.entries.length === 0 ? (
          <p className="rounded-xl border border-dashed border-white/15 p-4 text-sm text-muted">
            {t('lorebooks.no_entries')}
          </p>
        ) : (
          <ul className="flex flex-col gap-2">
            {book.entries.map((entry) => (
              <EntryRow
                key={entry.id}
                entry={entry}
                onEdit={() => setEditing(entry)}
                onDelete={() => setDeleting(entry)}
              />
            ))}
          </ul>
        )}
      </section>
      <Modal
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('lorebooks.add_entry') : t('lorebooks.edit_entry')}
        size="lg"
      >
        {editing !== null && (
          <EntryForm
            key={editing === 'new' ? 'new' : editing.id}
            initial={editing === 'new' ? NEW_ENTRY : editing}
            pending={create.isPending || update.isPending}
            onSave={save}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
      <ConfirmDialog
        open={deleting !== null}
        title={t('lorebooks.delete_entry_title')}
        text={t('lorebooks.delete_entry_text')}
        confirmLabel={t('lorebooks.delete')}
        cancelLabel={t('lorebooks.cancel')}
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
        testId="lore-entry-delete-confirm"
      />
    </div>
  );
}
