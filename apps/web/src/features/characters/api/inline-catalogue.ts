import { INLINE_CATALOGUE_ID, type BotList } from '@reverie/shared';

let taken = false;

/**
 * The guest's first catalogue page the server wrote into index.html of `/`, taken once: the
 * first list of a guest starts from it instead of asking the API after the scripts have run
 * (a round trip less on a slow phone). Later lists, members and other pages ask the API.
 */
export function takeInlineCatalogue(): BotList | undefined {
  if (taken || typeof document === 'undefined') return undefined;
  taken = true;
  const element = document.getElementById(INLINE_CATALOGUE_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const page = JSON.parse(element.textContent ?? '') as Partial<BotList>;
    if (!Array.isArray(page.results)) return undefined;
    return { results: page.results, next_param: typeof page.next_param === 'string' ? page.next_param : null };
  } catch {
    return undefined;
  }
}

/** Tests: the next list may take an inline page again. */
export function resetInlineCatalogue(): void {
  taken = false;
}
