import validation from 'virtual:reverie-en/validation';
import { addEnglishTexts } from '../../lib/i18n';

// The forms' English validation texts travel with the forms' chunk, not with the landing page.
addEnglishTexts({ validation });
