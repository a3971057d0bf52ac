import characters from 'virtual:reverie-en/characters';
import explore from 'virtual:reverie-en/explore';
import { addEnglishTexts } from '../../lib/i18n';

// The catalogue's English texts travel with the pages that show characters, not with the
// landing page's first download.
addEnglishTexts({ characters, explore });
