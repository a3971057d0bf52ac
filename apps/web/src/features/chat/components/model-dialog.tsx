import '../texts';
import { useTranslation } from '../../../lib/i18n';
import { Check, Crown, Lock } from 'lucide-react';
import type { ModelInfo } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { DialogListState } from './dialog-list-state';
import { ApiRequestError } from '../../../lib/api-client';
import { useModels } from '../api/get-models';
import { useUpdateChat } from '../api/update-chat';

/** A context size as people say it: 8192 → "8K". */
const contextSize = (tokens: number) => (tokens >= 1024 ? `${Math.round(tokens / 1024)}K` : String(tokens));

/** Choosing the chat's model; a premium model a free user may not pick opens the premium offer. */
export function ModelDialog({
  chatId,
  modelId,
  viewer,
  open,
  onClose,
  onRequirePremium,
}: {
  chatId: string;
  modelId: string | null;
  viewer: string;
  open: boolean;
  onClose: () => void;
  onRequirePremium: () => void;
}) {
  const { t } = useTranslation();
  const models = useModels(viewer, open);
  const update = useUpdateChat(chatId, viewer);
  const current = modelId ?? models.data?.default_id ?? null;

  const choose = async (model: ModelInfo) => {
    if (!model.available) {
      onClose();
      onRequirePremium();
      return;
    }
    if (model.id === current) return onClose();
    try {
      await update.mutateAsync({ model_id: model.id === models.data?.default_id ? null : model.id });
      showAlert(t('chat.model_saved', { model: model.label }));
      onClose();
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 402) {
        onClose();
        onRequirePremium();
      } else showAlert(t('chat.save_failed'), { type: 'error' });
    }
  };

  return (
    <Modal open={open} onClose={onClose} title={t('chat.model_title')} description={t('chat.model_text')}>
      <DialogListState query={models}>
        {(data) => (
          <ul className="flex flex-col gap-2" data-testid="model-list">
            {data.results.map((model) => {
              const selected = model.id === current;
              return (
                <li key={model.id}>
                  <button
                    type="button"
                    aria-pressed={selected}
                    disabled={update.isPending}
                    onClick={() => void choose(model)}
                    className={`flex w-full items-center gap-3 rounded-xl border px-4 py-3 text-left text-sm ${
                      selected ? 'border-primary bg-primary/10' : 'border-white/10 hover:bg-white/5'
                    }`}
                  >
                    <span className="flex min-w-0 flex-1 flex-col">
                      <span className="font-medium">
                        {model.label}
                        {model.id === data.default_id && (
                          <span className="ml-2 text-xs font-normal text-muted">{t('chat.model_default')}</span>
                        )}
                      </span>
                      <span className="text-xs text-muted">
                        {t('chat.model_context', { size: contextSize(model.context_size) })}
                      </span>
                    </span>
                    {model.premium && (
                      <span className="flex items-center gap-1 rounded-full bg-secondary/20 px-2 py-0.5 text-xs text-fg">
                        <Icon icon={model.available ? Crown : Lock} size="sm" />
                        {t('chat.model_premium')}
                      </span>
                    )}
                    {selected && <Icon icon={Check} size="md" className="text-primary" />}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </DialogListState>
    </Modal>
  );
}
