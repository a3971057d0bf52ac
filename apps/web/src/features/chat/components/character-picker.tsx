import '../texts';
import { useEffect, useMemo, useState } from 'react';
import { Check } from 'lucide-react';
import { Icon } from '../../../components/ui/icon';
import { SearchField } from '../../../components/ui/search-field';
import { Skeleton } from '../../../components/ui/page';
import { useTranslation } from '../../../lib/i18n';
import { useCharacterSearch, type PickableCharacter } from '../api/scene';

/**
 * Picks characters for a scene: the ones the user already talks to first (`known`), then the
 * catalogue, searched by name. `selected` are ids; `max` stops further picks; `exclude` (ids)
 * are not offered (already in the scene).
 */
export function CharacterPicker({
  known,
  selected,
  onToggle,
  max,
  exclude = [],
  enabled = true,
}: {
  known: PickableCharacter[];
  selected: string[];
  onToggle: (character: PickableCharacter) => void;
  max: number;
  exclude?: string[];
  enabled?: boolean;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  const catalogue = useCharacterSearch(q, enabled);
  const options = useMemo(() => {
    const wanted = q.toLocaleLowerCase();
    const mine = known.filter((c) => !wanted || c.name.toLocaleLowerCase().includes(wanted));
    const seen = new Set([...exclude, ...mine.map((c) => c.id)]);
    return [...mine.filter((c) => !exclude.includes(c.id)), ...(catalogue.data ?? []).filter((c) => !seen.has(c.id))];
  }, [known, catalogue.data, q, exclude]);
  const full = selected.length >= max;
  return (
    <div className="flex flex-col gap-3">
      <SearchField
        value={search}
        onChange={setSearch}
        maxLength={100}
        label={t('scenes.pick_search')}
        placeholder={t('scenes.pick_search')}
        testId="scene-pick-search"
      />
      {catalogue.isPending && options.length === 0 ? (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} className="h-24 w-full" />
          ))}
        </div>
      ) : options.length === 0 ? (
        <p className="py-4 text-center text-sm text-muted">{t('scenes.pick_none')}</p>
      ) : (
        <ul
          className="grid max-h-[40dvh] grid-cols-3 gap-2 overflow-y-auto p-0.5 sm:grid-cols-4"
          aria-label={t('scenes.pick_label')}
          data-testid="scene-pick-list"
        >
          {options.map((character) => {
            const on = selected.includes(character.id);
            return (
              <li key={character.id}>
                <button
                  type="button"
                  aria-pressed={on}
                  disabled={!on && full}
                  onClick={() => onToggle(character)}
                  data-testid="scene-pick-option"
                  className={`relative flex w-full flex-col items-center gap-1 rounded-2xl border p-2 text-center text-xs disabled:opacity-40 ${
                    on ? 'border-primary bg-primary/10' : 'border-white/10 hover:bg-white/5'
                  }`}
                >
                  {character.avatar_url ? (
                    <img src={character.avatar_url} alt="" className="h-14 w-14 rounded-full object-cover" />
                  ) : (
                    <span className="h-14 w-14 rounded-full bg-white/5" aria-hidden="true" />
                  )}
                  <span className="w-full truncate font-medium">{character.name}</span>
                  {on && (
                    <span className="absolute top-1.5 right-1.5 rounded-full bg-primary p-0.5 text-on-primary">
                      <Icon icon={Check} size="sm" className="h-3 w-3" />
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** The characters of the user's chats (one each), newest first: what they pick from first. */
export function knownCharacters(
  chats: {
    bot: PickableCharacter;
    scene?: { characters: { bot_id: string; slug: string; name: string; avatar_url: string | null }[] } | null;
  }[],
): PickableCharacter[] {
  const seen = new Map<string, PickableCharacter>();
  for (const chat of chats) {
    const cast = chat.scene
      ? chat.scene.characters.map((c) => ({ id: c.bot_id, slug: c.slug, name: c.name, avatar_url: c.avatar_url }))
      : [{ id: chat.bot.id, slug: chat.bot.slug, name: chat.bot.name, avatar_url: chat.bot.avatar_url }];
    for (const character of cast) if (!seen.has(character.id)) seen.set(character.id, character);
  }
  return [...seen.values()];
}
