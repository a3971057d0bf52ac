import { chat, chats, chat_safety } from '@reverie/shared/locales/en.json';
import { addEnglishTexts } from '../../lib/i18n';

// The chat's English texts travel with the chat's chunk, not with the landing page.
addEnglishTexts({ chat, chats, chat_safety });
