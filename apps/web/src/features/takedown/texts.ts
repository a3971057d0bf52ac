import takedown from 'virtual:reverie-en/takedown';
import validation from 'virtual:reverie-en/validation';
import { addEnglishTexts } from '../../lib/i18n';

// The takedown page's English texts travel with its chunk, not with the landing page.
addEnglishTexts({ takedown, validation });
