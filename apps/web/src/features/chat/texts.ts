import { chat, chats, chat_safety, validation } from '@reverie/shared/locales/en.json';
import scenes from 'virtual:reverie-en/scenes';
import { addEnglishTexts } from '../../lib/i18n';

// The chat's English texts travel with the chat's chunk, not with the landing page.
// `validation`: the rename field's messages. `scenes`: group chats (docs/groups.md).
addEnglishTexts({ chat, chats, chat_safety, scenes, validation });
