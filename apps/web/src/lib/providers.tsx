import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { i18n } from './i18n';
import { bindProfileToSession } from './profile';

/** The app's data cache (tests make their own, to seed it). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // ofetch already retries per the specification's policy.
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}

/**
 * App-wide providers: the data cache (the profile dropped when the tokens go; everything read
 * again in the new language when the language changes: the official characters and the blog
 * answer in it). Texts: `lib/i18n.ts`.
 */
export function AppProviders({ children, client: given }: { children: ReactNode; client?: QueryClient }) {
  const [client] = useState(() => given ?? createQueryClient());
  useEffect(() => {
    return bindProfileToSession(client); // its clean-up unbinds
  }, [client]);
  useEffect(() => {
    const stop = i18n.onLanguageChanged(() => void client.invalidateQueries());
    return () => void stop();
  }, [client]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
