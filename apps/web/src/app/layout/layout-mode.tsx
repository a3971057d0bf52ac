import { createContext, useContext, useLayoutEffect } from 'react';

/**
 * Lets a page ask the layout for the site's navigation on a route that is otherwise
 * immersive (a chat without bars): a "page not found" at `/{slug}` for a slug no visible
 * character has, or the error page, shows the top bar, tab bar and footer.
 */
const ShowNavigationContext = createContext<(shown: boolean) => void>(() => {});

export const ShowNavigationProvider = ShowNavigationContext.Provider;

/** While the calling component is mounted the layout shows its bars, whatever the route says. */
export function useShowNavigation(): void {
  const setShown = useContext(ShowNavigationContext);
  useLayoutEffect(() => {
    setShown(true);
    return () => setShown(false);
  }, [setShown]);
}
