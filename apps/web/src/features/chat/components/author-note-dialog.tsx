import '../texts';
import { useState } from 'react';
import { AUTHOR_NOTE_DEPTH_MAX, AUTHOR_NOTE_MAX, type AuthorNote } from '@reverie/shared';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { useTranslation } from '../../../lib/i18n';
import { useAuthorNote } from '../api/get-author-note';
import { useUpdateAuthorNote } from '../api/update-author-note';
import { CancelSaveButtons, DialogTextArea, textField, useSaveAndClose } from './chat-text-editor';
import { DialogListState } from './dialog-list-state';

/** The editor, mounted once the note is loaded so it starts from the saved one. */
function AuthorNoteEditor({ chatId, initial, onDone }: { chatId: string; initial: AuthorNote; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useUpdateAuthorNote(chatId);
  const [text, setText] = useState(initial.text);
  const [depth, setDepth] = useState(String(initial.depth));
  const depthValue = Number(depth);
  const depthValid =
    depth.trim() !== '' && Number.isInteger(depthValue) && depthValue >= 0 && depthValue <= AUTHOR_NOTE_DEPTH_MAX;
  const changed = text !== initial.text || depthValue !== initial.depth;
  const onSave = useSaveAndClose(
    () => save.mutateAsync({ text, depth: depthValue }),
    t('chat.author_note_saved'),
    onDone,
  );
  return (
    <div className="flex flex-col gap-4">
      <label className="flex flex-col gap-1.5 text-sm">
        <span>{t('chat.author_note_label')}</span>
        <DialogTextArea
          value={text}
          onChange={setText}
          max={AUTHOR_NOTE_MAX}
          rows={5}
          placeholder={t('chat.author_note_placeholder')}
          testId="author-note-field"
          minHeight="min-h-32"
        />
        <span className="text-xs text-muted tabular-nums">
          {t('chat.char_count', { used: text.length, max: AUTHOR_NOTE_MAX })}
        </span>
      </label>
      <label className="flex flex-col gap-1.5 text-sm">
        <span>{t('chat.author_note_depth')}</span>
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={AUTHOR_NOTE_DEPTH_MAX}
          value={depth}
          onChange={(event) => setDepth(event.target.value)}
          aria-invalid={depthValid ? undefined : true}
          aria-describedby="author-note-depth-help"
          data-testid="author-note-depth"
          className={`w-28 ${textField}`}
        />
        <span id="author-note-depth-help" className={`text-xs ${depthValid ? 'text-muted' : 'text-red-300'}`}>
          {t('chat.author_note_depth_help', { max: AUTHOR_NOTE_DEPTH_MAX })}
        </span>
      </label>
      <CancelSaveButtons
        onCancel={onDone}
        onSave={onSave}
        disabled={save.isPending || !changed || !depthValid}
        testId="author-note-save"
      />
    </div>
  );
}

/** The author's note of a chat (docs/chat.md "Author's note"): a steer the character does not see as a message. */
export function AuthorNoteDialog({ chatId, open, onClose }: { chatId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const note = useAuthorNote(chatId, open);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('chat.author_note_title')}
      description={t('chat.author_note_text')}
      size="lg"
    >
      <DialogListState query={note} skeleton={<Skeleton className="h-40 w-full" />}>
        {(saved) => (
          <AuthorNoteEditor key={`${saved.text}:${saved.depth}`} chatId={chatId} initial={saved} onDone={onClose} />
        )}
      </DialogListState>
    </Modal>
  );
}
