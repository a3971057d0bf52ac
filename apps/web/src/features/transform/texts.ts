import transform from 'virtual:reverie-en/transform';
import { addEnglishTexts } from '../../lib/i18n';

// The style transform's English texts travel with its page's chunk.
addEnglishTexts({ transform });
