import errors from 'virtual:reverie-en/errors';
import { addEnglishTexts } from './i18n';

// The English error texts travel with the pages and dialogs that show them; the landing page
// keeps only the error page's (CORE_ENGLISH_KEYS in vite.config.ts).
addEnglishTexts({ errors });
