import voice from 'virtual:reverie-en/voice';
import '../../lib/error-texts';
import { addEnglishTexts } from '../../lib/i18n';

// The voice messages' English texts travel with the chat's chunk, not with the landing page.
addEnglishTexts({ voice });
