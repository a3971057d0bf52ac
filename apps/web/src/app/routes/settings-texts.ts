import settings from 'virtual:reverie-en/settings';
import { addEnglishTexts } from '../../lib/i18n';

// The settings page's English texts travel with its chunk, not with the landing page.
addEnglishTexts({ settings });
