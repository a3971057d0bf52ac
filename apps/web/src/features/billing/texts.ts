import billing from 'virtual:reverie-en/billing';
import claim from 'virtual:reverie-en/claim';
import '../../lib/error-texts';
import { addEnglishTexts } from '../../lib/i18n';

// The billing modals' and the daily claim's English texts travel with their chunks, not with
// the landing page.
addEnglishTexts({ billing, claim });
