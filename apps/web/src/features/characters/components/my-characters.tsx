import '../../../lib/error-texts';
import '../character-texts';
import '../texts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Copy, Download, MessageCircle, Pencil, Trash2 } from 'lucide-react';
import type { BotMine } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { LoadFailed } from '../../../components/ui/load-failed';
import { MenuButton } from '../../../components/ui/menu-button';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { toApiRequestError } from '../../../lib/api-client';
import { downloadCard } from '../../../lib/download-card';
import { useTranslation } from '../../../lib/i18n';
import { useBot } from '../api/get-bot';
import { useDeleteBot } from '../api/delete-bot';
import { useDuplicateBot } from '../api/duplicate-bot';
import { useMyBots } from '../api/get-my-bots';
import { EditCharacterDialog } from './edit-character-dialog';

export type MineKind = 'character' | 'persona';

/** What My characters says a character's state is (PRODUCT.md §5: the review rules). */
export function stateOf(bot: BotMine): 'private' | 'public' | 'pending' | 'rejected' | 'unpublished' {
  if (bot.review_state === 'rejected') return bot.visibility === 'public' ? 'rejected' : 'unpublished';
  if (bot.visibility === 'private') return 'private';
  return bot.review_state === 'approved' ? 'public' : 'pending';
}

const STATE_STYLE = {
  private: 'border-white/15 text-muted',
  public: 'border-emerald-400/40 text-emerald-200',
  pending: 'border-amber-400/40 text-amber-200',
  rejected: 'border-red-400/40 text-red-200',
  unpublished: 'border-red-400/40 text-red-200',
} as const;

/** The edit dialog of one of the user's characters, once its page's fields are loaded. */
function EditLoaded({ slug, onClose }: { slug: string; onClose: () => void }) {
  const { t } = useTranslation();
  const bot = useBot(slug);
  const failed = bot.isError;
  useEffect(() => {
    if (!failed) return;
    showAlert(t('characters.mine.load_failed'), { type: 'error' });
    onClose();
  }, [failed, onClose, t]);
  if (!bot.data) return null;
  return <EditCharacterDialog bot={bot.data} onClose={onClose} />;
}

/** "Delete …?" with what deleting means for the chats people have with it. */
function DeleteDialog({ bot, onClose }: { bot: BotMine; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteBot();
  const shared = bot.people_count > 0;
  return (
    <Modal open onClose={onClose} title={t('characters.mine.delete_title', { name: bot.name })}>
      <div className="flex flex-col gap-3 text-sm" data-testid="delete-character-dialog">
        <p>
          {t(
            bot.kind === 'persona'
              ? 'characters.mine.delete_persona_text'
              : shared
                ? 'characters.mine.delete_shared_text'
                : 'characters.mine.delete_text',
            { name: bot.name, count: bot.people_count },
          )}
        </p>
        <div className="mt-2 flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded-full border border-white/15 px-5 py-2">
            {t('characters.mine.cancel')}
          </button>
          <button
            type="button"
            disabled={remove.isPending}
            data-testid="delete-character-confirm"
            className="rounded-full bg-red-600 px-5 py-2 font-semibold text-white disabled:opacity-60"
            onClick={() =>
              remove.mutate(bot.slug, {
                onSuccess: () => {
                  showAlert(t('characters.mine.deleted', { name: bot.name }));
                  onClose();
                },
                onError: () => showAlert(t('errors.something_went_wrong'), { type: 'error' }),
              })
            }
          >
            {t('characters.mine.delete_confirm')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

function MyCharacterRow({ bot, onEdit, onDelete }: { bot: BotMine; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const duplicate = useDuplicateBot();
  const state = stateOf(bot);
  const character = bot.kind === 'character';
  const actions = [
    { id: 'edit', label: t('characters.mine.edit'), icon: Pencil, onSelect: onEdit },
    {
      id: 'duplicate',
      label: t('characters.mine.duplicate'),
      icon: Copy,
      onSelect: () =>
        duplicate.mutate(bot.slug, {
          onSuccess: (copy) => showAlert(t('characters.mine.duplicated', { name: copy.name })),
          onError: (error) =>
            showAlert(
              t(
                toApiRequestError(error).code === 'rate_limited'
                  ? 'characters.mine.rate_limited'
                  : 'errors.something_went_wrong',
              ),
              { type: 'error' },
            ),
        }),
    },
    ...(character
      ? [
          {
            id: 'card',
            label: t('characters.mine.export_card'),
            icon: Download,
            onSelect: () =>
              void downloadCard(bot.slug).catch(() => showAlert(t('errors.something_went_wrong'), { type: 'error' })),
          },
        ]
      : []),
    { id: 'delete', label: t('characters.mine.delete'), icon: Trash2, onSelect: onDelete },
  ];
  const picture = (
    <span className="block h-16 w-16 shrink-0 overflow-hidden rounded-2xl bg-white/5">
      {bot.avatar_url && <img src={bot.avatar_url} alt="" className="h-full w-full object-cover" loading="lazy" />}
    </span>
  );
  return (
    <li
      className="flex items-start gap-3 rounded-2xl border border-white/10 bg-surface p-3"
      data-testid="my-character"
      data-slug={bot.slug}
    >
      {character ? (
        <Link to={`/${bot.slug}`} className="shrink-0" aria-label={t('characters.mine.open', { name: bot.name })}>
          {picture}
        </Link>
      ) : (
        picture
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          {character ? (
            <Link to={`/${bot.slug}`} className="truncate font-semibold hover:underline">
              {bot.name}
            </Link>
          ) : (
            <span className="truncate font-semibold">{bot.name}</span>
          )}
          {character && (
            <span
              className={`rounded-full border px-2 py-0.5 text-xs ${STATE_STYLE[state]}`}
              data-testid="my-character-state"
            >
              {t(`characters.mine.state_${state}`)}
            </span>
          )}
        </div>
        {character && (
          <p className="mt-1 text-xs text-muted" data-testid="my-character-counts">
            {t('characters.mine.chats', { count: bot.chats_count })}
            {state === 'public' && <> · {t('characters.mine.people', { count: bot.people_count })}</>}
          </p>
        )}
        {!character && <p className="mt-1 line-clamp-2 text-xs text-muted">{bot.description}</p>}
        {bot.review_reason && (state === 'rejected' || state === 'unpublished') && (
          <p className="mt-1 text-xs text-red-300" data-testid="my-character-reason">
            {t('characters.review.reason', { reason: bot.review_reason })}
          </p>
        )}
      </div>
      <div className="flex shrink-0 items-center gap-1">
        {character && (
          <Link
            to={`/${bot.slug}`}
            className="flex items-center gap-1.5 rounded-full bg-primary px-3 py-1.5 text-sm font-semibold text-on-primary"
            data-testid="my-character-chat"
          >
            <Icon icon={MessageCircle} size="sm" />
            {t('characters.mine.chat')}
          </Link>
        )}
        <MenuButton
          label={t('characters.mine.actions', { name: bot.name })}
          items={actions}
          testId="my-character-menu"
          minWidth="min-w-44"
        />
      </div>
    </li>
  );
}

/**
 * My characters (issue 30): the user's characters or personas with their state (private,
 * public, waiting for review, rejected with the reason, unpublished), their chats and, for
 * public ones, how many people chat with them; open, chat, edit, duplicate, export as a card,
 * delete.
 */
export function MyCharacters({
  viewer,
  kind,
  onKindChange,
  onCreate,
}: {
  viewer: string;
  kind: MineKind;
  onKindChange: (kind: MineKind) => void;
  onCreate: () => void;
}) {
  const { t } = useTranslation();
  const mine = useMyBots(viewer);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<BotMine | null>(null);
  const shown = (mine.data ?? []).filter((bot) => bot.kind === kind);
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <SegmentedControl
        value={kind}
        onChange={onKindChange}
        label={t('characters.mine.title')}
        options={(['character', 'persona'] as const).map((value) => ({
          value,
          label: t(`characters.mine.tab_${value}`),
        }))}
      />
      {mine.isPending ? (
        <div className="flex flex-col gap-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
      ) : mine.isError ? (
        <LoadFailed
          text={t('characters.mine.load_failed')}
          retryLabel={t('app.retry')}
          onRetry={() => void mine.refetch()}
          className="py-12"
        />
      ) : shown.length === 0 ? (
        <div className="flex flex-col items-center gap-3 py-12 text-center">
          <p className="text-muted">{t(`characters.mine.empty_${kind}`)}</p>
          <button
            type="button"
            onClick={onCreate}
            className="rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary"
          >
            {t(`characters.mine.create_${kind}`)}
          </button>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t(`characters.mine.tab_${kind}`)}>
          {shown.map((bot) => (
            <MyCharacterRow
              key={bot.id}
              bot={bot}
              onEdit={() => setEditing(bot.slug)}
              onDelete={() => setDeleting(bot)}
            />
          ))}
        </ul>
      )}
      {editing && <EditLoaded slug={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteDialog bot={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
