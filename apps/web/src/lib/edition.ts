import { getEdition, type Edition } from '@reverie/shared';

/**
 * The edition this page belongs to: written into `<html data-edition>` by the server (or by
 * the build from VITE_APP_NAME when the web app is hosted on its own).
 */
export function currentEdition(): Edition {
  return getEdition(document.documentElement.dataset.edition ?? import.meta.env.VITE_APP_NAME);
}
