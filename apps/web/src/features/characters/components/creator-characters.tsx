import '../character-texts';
import type { Bot } from '@reverie/shared';
import { CharacterCard } from './character-card';

/** A creator's public characters, as Explore shows cards. */
export function CreatorCharacters({ bots }: { bots: Bot[] }) {
  return (
    <div
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6"
      data-testid="creator-characters"
    >
      {bots.map((bot, i) => (
        <CharacterCard key={bot.id} bot={bot} priority={i < 4} />
      ))}
    </div>
  );
}
