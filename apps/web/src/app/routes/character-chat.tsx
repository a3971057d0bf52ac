import { useParams } from 'react-router';
import { useBot } from '../../features/characters/api/get-bot';
import {
  CharacterNotFound,
  CharacterProfile,
  CharacterProfileSkeleton,
} from '../../features/characters/components/character-profile';

/** `/{slug}`: the character's page (the chat itself arrives with the chat feature). */
export function Component() {
  const { slug = '' } = useParams();
  const query = useBot(slug);
  if (query.isPending) return <CharacterProfileSkeleton />;
  if (query.isError || !query.data) return <CharacterNotFound />;
  return <CharacterProfile bot={query.data} />;
}
