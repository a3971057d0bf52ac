import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { Mail } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { Logo } from '../../components/ui/logo';
import { API_BASE_URL } from '../../lib/config';
import { currentEdition } from '../../lib/edition';
import { useClientConfig } from '../../lib/client-config';

/** Support mail link, Terms and Conditions, Privacy Policy, Blog. */
export function LegalLinks() {
  const { t } = useTranslation();
  const { data: config } = useClientConfig();
  const email = config?.support_email ?? currentEdition().supportEmail;
  return (
    <ul className="flex flex-col gap-2 text-muted sm:flex-row sm:flex-wrap sm:gap-x-6">
      <li>
        <a href={`mailto:${email}`} className="inline-flex items-center gap-1.5 hover:text-fg">
          <Icon icon={Mail} size="sm" />
          {t('footer.support', { email })}
        </a>
      </li>
      <li>
        <a href={`${API_BASE_URL}/terms.pdf`} target="_blank" rel="noopener" className="hover:text-fg">
          {t('footer.terms')}
        </a>
      </li>
      <li>
        <a href={`${API_BASE_URL}/privacy.pdf`} target="_blank" rel="noopener" className="hover:text-fg">
          {t('footer.privacy')}
        </a>
      </li>
      <li>
        <Link to="/blog" className="hover:text-fg">
          {t('footer.blog')}
        </Link>
      </li>
      <li>
        <Link to="/takedown" className="hover:text-fg" data-testid="footer-takedown">
          {t('footer.takedown')}
        </Link>
      </li>
    </ul>
  );
}

export function Footer() {
  const { t } = useTranslation();
  const edition = currentEdition();
  return (
    <footer className="mt-16 border-t border-white/5 bg-surface/40" data-testid="footer">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 text-sm lg:px-6">
        <Logo />
        <LegalLinks />
        <p className="text-xs text-muted">
          {t('footer.rights', { year: new Date().getFullYear(), name: edition.name })}
        </p>
      </div>
    </footer>
  );
}
