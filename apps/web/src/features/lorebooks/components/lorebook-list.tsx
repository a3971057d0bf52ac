import '../../../lib/error-texts';
import '../texts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Upload } from 'lucide-react';
import { LOREBOOK_NAME_MAX, type LorebookSummary } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { primaryButtonClass } from '../../../components/ui/dialog-actions';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Skeleton } from '../../../components/ui/page';
import { toApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { lorebookCalls, useLorebookWrite } from '../api/book-writes';
import { useLorebooks } from '../api/get-lorebooks';
import { fileStem, importErrorText, importedText, readJsonFile } from '../files';
import { lorebookPath } from '../paths';
import { ImportButton, RowDeleteButton, TextInput } from './fields';

/** A new book: its name, then its page. */
function CreateBook() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useLorebookWrite((value: string) => lorebookCalls.create({ name: value }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t('validation.required'));
    try {
      const book = await create.mutateAsync(name);
      setName('');
      void navigate(lorebookPath(book.id));
    } catch (failure) {
      const api = toApiRequestError(failure);
      setError(api.fieldErrors.name?.[0] ?? api.message);
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-1.5" noValidate>
      <div className="flex gap-2">
        <TextInput
          value={name}
          onChange={(value) => {
            setName(value);
            setError(null);
          }}
          maxLength={LOREBOOK_NAME_MAX}
          placeholder={t('lorebooks.new_placeholder')}
          label={t('lorebooks.name')}
          testId="lorebook-new-name"
        />
        <button
          type="submit"
          disabled={create.isPending}
          className={`shrink-0 ${primaryButtonClass}`}
          data-testid="lorebook-create"
        >
          {t('lorebooks.create')}
        </button>
      </div>
      {error && (
        <span role="alert" className="text-xs text-red-300">
          {error}
        </span>
      )}
    </form>
  );
}

function BookRow({ book, onDelete }: { book: LorebookSummary; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-3 rounded-xl border border-white/10 p-3" data-testid="lorebook-row">
      <Link to={lorebookPath(book.id)} className="min-w-0 flex-1">
        <span className="block truncate font-medium">{book.name}</span>
        <span className="block text-xs text-muted">
          {t('lorebooks.entry_count', { count: book.entry_count })}
          {book.global ? ` · ${t('lorebooks.global_mark')}` : ''}
        </span>
      </Link>
      <RowDeleteButton label={t('lorebooks.delete')} onClick={onDelete} testId="lorebook-delete" />
    </li>
  );
}

/** The user's own lorebooks (Settings → Lorebooks): create, import a World Info file, open, delete. */
export function LorebookList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const books = useLorebooks();
  const [deleting, setDeleting] = useState<LorebookSummary | null>(null);
  const importNew = useLorebookWrite(({ data, name }: { data: Record<string, unknown>; name: string }) =>
    lorebookCalls.importNew(data, name),
  );
  const remove = useLorebookWrite((id: string) => lorebookCalls.remove(id));
  const onFile = async (file: File) => {
    const data = await readJsonFile(file);
    if (!data) return showAlert(t('errors.lorebook_import_invalid'), { type: 'error' });
    try {
      const book = await importNew.mutateAsync({ data, name: fileStem(file.name) });
      showAlert(importedText(book, t));
      void navigate(lorebookPath(book.id));
    } catch (failure) {
      showAlert(importErrorText(toApiRequestError(failure), data, t), { type: 'error' });
    }
  };
  return (
    <div className="flex max-w-3xl flex-col gap-4" data-testid="lorebook-list">
      <p className="text-sm text-muted">{t('lorebooks.intro')}</p>
      <CreateBook />
      <div>
        <ImportButton
          onFile={onFile}
          label={t('lorebooks.import_new')}
          testId="lorebook-import-new"
          icon={Upload}
          disabled={importNew.isPending}
        />
      </div>
      {books.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : books.isError ? (
        <LoadFailed
          text={t('lorebooks.load_failed')}
          retryLabel={t('lorebooks.try_again')}
          onRetry={() => void books.refetch()}
        />
      ) : books.data.books.length === 0 ? (
        <p className="rounded-xl border border-dashed border-white/15 p-4 text-sm text-muted">{t('lorebooks.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {books.data.books.map((book) => (
            <BookRow key={book.id} book={book} onDelete={() => setDeleting(book)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('lorebooks.delete_book_title', { name: deleting?.name ?? '' })}
        text={t('lorebooks.delete_book_text')}
        confirmLabel={t('lorebooks.delete')}
        cancelLabel={t('lorebooks.cancel')}
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          void remove
            .mutateAsync(deleting.id)
            .then(() => setDeleting(null))
            .catch((failure: unknown) => showAlert(toApiRequestError(failure).message, { type: 'error' }))
        }
        onClose={() => setDeleting(null)}
        testId="lorebook-delete-confirm"
      />
    </div>
  );
}
