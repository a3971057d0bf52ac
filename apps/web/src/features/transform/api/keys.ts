/** Query keys of the user's transforms (the gallery and each polled transform). */
export const transformKeys = {
  all: ['transforms'] as const,
  list: () => [...transformKeys.all, 'list'] as const,
  one: (id: string) => [...transformKeys.all, 'one', id] as const,
};
