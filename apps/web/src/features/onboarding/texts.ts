import onboarding from 'virtual:reverie-en/onboarding';
import { addEnglishTexts } from '../../lib/i18n';

// The onboarding's English texts travel with its page's chunk, not with the landing page.
addEnglishTexts({ onboarding });
