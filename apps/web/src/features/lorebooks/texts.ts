import { lorebooks, validation } from '@reverie/shared/locales/en.json';
import { addEnglishTexts } from '../../lib/i18n';

// The lorebooks' English texts travel with their chunk; `validation`: the fields' messages.
addEnglishTexts({ lorebooks, validation });
