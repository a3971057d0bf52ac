import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCharacter } from '@reverie/shared';
import { contentKeys } from './content-keys';

/** After a write: the character's own query gets the answer, the lists are read again. */
export function useCharacterWritten() {
  const client = useQueryClient();
  return (character: AdminCharacter) => {
    client.setQueryData(contentKeys.character(character.id), character);
    void client.invalidateQueries({ queryKey: contentKeys.charactersAll, exact: false });
    void client.invalidateQueries({ queryKey: contentKeys.review });
    void client.invalidateQueries({ queryKey: ['admin', 'count'] });
  };
}

/** A write on a character (`write` answers it as saved), followed by `useCharacterWritten`. */
export function useCharacterWrite<Input>(write: (input: Input) => Promise<AdminCharacter>) {
  const written = useCharacterWritten();
  return useMutation({ mutationFn: write, onSuccess: written });
}
