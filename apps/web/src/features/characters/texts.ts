import createCharacter from 'virtual:reverie-en/create_character';
import validation from 'virtual:reverie-en/validation';
import { addEnglishTexts } from '../../lib/i18n';

// The create-character modal's English texts travel with its chunk, not with the landing page.
addEnglishTexts({ create_character: createCharacter, validation });
