import billing from 'virtual:reverie-en/billing';
import { addEnglishTexts } from '../../lib/i18n';

// The billing modals' English texts travel with their chunks, not with the landing page.
addEnglishTexts({ billing });
