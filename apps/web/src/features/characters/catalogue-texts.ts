import characters from 'virtual:reverie-en/characters@catalogue';
import explore from 'virtual:reverie-en/explore';
import { addEnglishTexts } from '../../lib/i18n';

// The catalogue's English texts travel with the pages that show characters, not with the
// landing page's first download; of the `characters` section only what the grid and its
// cards show (ENGLISH_PARTS in vite.config.ts): the rest comes with `character-texts.ts`.
addEnglishTexts({ characters, explore });
