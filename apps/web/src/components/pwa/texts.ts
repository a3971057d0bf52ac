import pwa from 'virtual:reverie-en/app@pwa';
import { addEnglishTexts } from '../../lib/i18n';

// The install offer's, the update toast's and the offline page's English texts come with
// them, after the first screen (ENGLISH_PARTS in vite.config.ts).
addEnglishTexts({ app: pwa });
