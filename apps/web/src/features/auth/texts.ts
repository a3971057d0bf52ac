import auth from 'virtual:reverie-en/auth';
import validation from 'virtual:reverie-en/validation';
import { addEnglishTexts } from '../../lib/i18n';

// The sign-in, sign-up and account texts travel with the forms' chunks, not with the landing
// page (which keeps only the verification banner's, CORE_ENGLISH_KEYS in vite.config.ts).
addEnglishTexts({ auth, validation });
