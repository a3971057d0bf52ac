import memories from 'virtual:reverie-en/memories';
import { addEnglishTexts } from '../../lib/i18n';

// The memory page's and the reply mark's English texts travel with their chunk, not with the landing page.
addEnglishTexts({ memories });
