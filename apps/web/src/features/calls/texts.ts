import calls from 'virtual:reverie-en/calls';
import { addEnglishTexts } from '../../lib/i18n';

// The call screen's English texts travel with its chunk, not with the landing page.
addEnglishTexts({ calls });
