import admin from 'virtual:reverie-en/admin';
import { addEnglishTexts } from '../../lib/i18n';

// The console's English texts travel with its chunk, not with the landing page.
addEnglishTexts({ admin });
