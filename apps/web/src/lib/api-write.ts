import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

/**
 * A write to the API (`write`), then what its answer changes in the query cache (`written`: an
 * answer to keep, lists to read again). The chats', memories' and characters' writes.
 */
export function useApiWrite<Input, Answer>(
  write: (input: Input) => Promise<Answer>,
  written: (client: QueryClient, answer: Answer) => void,
) {
  const client = useQueryClient();
  return useMutation({ mutationFn: write, onSuccess: (answer: Answer) => written(client, answer) });
}
