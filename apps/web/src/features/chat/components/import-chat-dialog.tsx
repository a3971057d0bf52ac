import '../../../lib/error-texts';
import '../texts';
import { useState } from 'react';
import type { Chat } from '@reverie/shared';
import { Upload } from 'lucide-react';
import { FileButton } from '../../../components/ui/file-button';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useImportChat } from '../api/import-chat';
import {
  outlineButtonClass as outline,
  primaryButtonClass as primary,
  secondaryButtonClass as secondary,
} from '../../../components/ui/dialog-actions';

/**
 * "Import a chat (SillyTavern)" (docs/chat.md "Import"): a chat JSONL becomes a new chat with
 * this character, then opens. A file written with another character's name asks first.
 */
export function ImportChatDialog({
  open,
  bot,
  viewer,
  onClose,
  onImported,
}: {
  open: boolean;
  bot: { id: string; name: string };
  viewer: string;
  onClose: () => void;
  onImported: (chat: Chat) => void;
}) {
  const { t } = useTranslation();
  const importing = useImportChat(viewer);
  const [file, setFile] = useState<File | null>(null);
  const error = importing.error instanceof ApiRequestError ? importing.error : null;
  const mismatch = error?.code === 'import_character_mismatch';
  const start = (chosen: File, force: boolean) =>
    importing.mutate({ botId: bot.id, file: chosen, force }, { onSuccess: ({ chat }) => onImported(chat) });
  const message = (() => {
    if (!importing.isError) return null;
    switch (error?.code) {
      case 'import_character_mismatch':
        return t('chat.import.mismatch', { name: error.data?.errors?.character_name?.[0] ?? '', character: bot.name });
      case 'import_bad_line':
        return t('chat.import.bad_line', { line: error.data?.errors?.line?.[0] ?? '?' });
      case 'import_empty':
        return t('chat.import.empty');
      case 'import_too_many_messages':
        return t('chat.import.message_limit');
      case 'payload_too_large':
        return t('chat.import.too_large');
      case 'rate_limited':
        return t('chat.import.rate_limited');
      default:
        return t('errors.something_went_wrong');
    }
  })();
  return (
    <Modal open={open} onClose={onClose} title={t('chat.import.title')} size="sm">
      <div className="flex flex-col gap-4 text-sm">
        <p className="text-muted">{t('chat.import.intro', { character: bot.name })}</p>
        {/* The app's own button, in the reader's language (a bare file input says "Choose File" in the browser's). */}
        <div className="flex flex-col gap-1.5">
          <span>{t('chat.import.file')}</span>
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
            <FileButton
              accept=".jsonl,application/jsonl,application/x-ndjson,text/plain"
              label={t('chat.import.choose')}
              disabled={importing.isPending}
              onFile={(chosen) => {
                setFile(chosen);
                importing.reset();
                start(chosen, false);
              }}
              className={`${outline} disabled:opacity-50`}
              testId="import-chat-choose"
            >
              <Icon icon={Upload} size="sm" />
              {t('chat.import.choose')}
            </FileButton>
            {file && (
              <span className="min-w-0 truncate text-muted" data-testid="import-chat-file-name">
                {file.name}
              </span>
            )}
          </div>
        </div>
        {importing.isPending && (
          <p role="status" data-testid="import-chat-progress">
            {t('chat.import.progress')}
          </p>
        )}
        {message && (
          <p role="alert" className="text-danger" data-testid="import-chat-error">
            {message}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={secondary}>
            {t('chat.cancel')}
          </button>
          {mismatch && file && (
            <button
              type="button"
              className={primary}
              disabled={importing.isPending}
              onClick={() => start(file, true)}
              data-testid="import-chat-force"
            >
              {t('chat.import.anyway')}
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}
