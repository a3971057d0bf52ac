import companion from 'virtual:reverie-en/companion';
import { addEnglishTexts } from '../../lib/i18n';

// The companion's English texts travel with the chat's and the settings' chunks.
addEnglishTexts({ companion });
