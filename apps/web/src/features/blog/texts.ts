import blog from 'virtual:reverie-en/blog';
import { addEnglishTexts } from '../../lib/i18n';

// The blog's English texts travel with its pages' chunks, not with the landing page.
addEnglishTexts({ blog });
