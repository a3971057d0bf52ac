import characters from 'virtual:reverie-en/characters';
import './catalogue-texts';
import { addEnglishTexts } from '../../lib/i18n';

// All of the `characters` section: the character's page, the dialogs, My characters.
addEnglishTexts({ characters });
