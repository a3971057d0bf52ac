import pictures from 'virtual:reverie-en/pictures';
import { addEnglishTexts } from '../../lib/i18n';

// The chat pictures' English texts travel with the chat's chunk, not with the landing page.
addEnglishTexts({ pictures });
