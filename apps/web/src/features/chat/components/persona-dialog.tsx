import '../texts';
import { useTranslation } from '../../../lib/i18n';
import { Check, UserRound } from 'lucide-react';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { DialogListState } from './dialog-list-state';
import { useMyPersonas } from '../api/get-personas';
import { useUpdateChat } from '../api/update-chat';

/** Choosing who the character talks to: one of the user's personas, or none. */
export function PersonaDialog({
  chatId,
  personaId,
  viewer,
  open,
  onClose,
  onCreatePersona,
  save,
}: {
  chatId: string;
  personaId: string | null;
  viewer: string;
  open: boolean;
  onClose: () => void;
  /** Offers to create a persona (the page opens the create form). */
  onCreatePersona?: () => void;
  /** Saves the choice elsewhere (a group scene: the persona the scene sees me as); the chat's own otherwise. */
  save?: (personaId: string | null) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const personas = useMyPersonas(viewer, open);
  const update = useUpdateChat(chatId, viewer);

  const choose = async (id: string | null, name: string) => {
    if (id === personaId) return onClose();
    try {
      if (save) await save(id);
      else await update.mutateAsync({ persona_id: id });
      showAlert(t('chat.persona_saved', { name }));
      onClose();
    } catch {
      showAlert(t('chat.save_failed'), { type: 'error' });
    }
  };

  const options = [
    { id: null, name: t('chat.persona_none'), avatar: null as string | null },
    ...(personas.data ?? []).map((p) => ({ id: p.id as string | null, name: p.name, avatar: p.avatar_url })),
  ];

  return (
    <Modal open={open} onClose={onClose} title={t('chat.persona_title')} description={t('chat.persona_text')}>
      <DialogListState query={personas}>
        {(data) => (
          <div className="flex flex-col gap-3">
            <ul className="flex flex-col gap-2" data-testid="persona-list">
              {options.map((option) => {
                const selected = option.id === personaId;
                return (
                  <li key={option.id ?? 'none'}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      disabled={update.isPending}
                      onClick={() => void choose(option.id, option.name)}
                      className={`flex w-full items-center gap-3 rounded-xl border px-4 py-2.5 text-left text-sm ${
                        selected ? 'border-primary bg-primary/10' : 'border-white/10 hover:bg-white/5'
                      }`}
                    >
                      {option.avatar ? (
                        <img src={option.avatar} alt="" className="h-9 w-9 rounded-full object-cover" />
                      ) : (
                        <span className="flex h-9 w-9 items-center justify-center rounded-full bg-white/5 text-muted">
                          <Icon icon={UserRound} size="md" />
                        </span>
                      )}
                      <span className="flex-1 font-medium">{option.name}</span>
                      {selected && <Icon icon={Check} size="md" className="text-primary" />}
                    </button>
                  </li>
                );
              })}
            </ul>
            {data.length === 0 && <p className="text-sm text-muted">{t('chat.persona_empty')}</p>}
            {onCreatePersona && (
              <button
                type="button"
                onClick={() => {
                  onClose();
                  onCreatePersona();
                }}
                className="self-start rounded-full border border-white/15 px-4 py-2 text-sm hover:bg-white/5"
              >
                {t('chat.persona_create')}
              </button>
            )}
          </div>
        )}
      </DialogListState>
    </Modal>
  );
}
