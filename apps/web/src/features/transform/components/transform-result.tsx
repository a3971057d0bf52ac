import { Download, UserRound } from 'lucide-react';
import type { Transform } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { IconTextButton } from '../../../components/ui/icon-button';
import { useTranslation } from '../../../lib/i18n';
import { mediaSrc } from '../../../lib/media';

/** The result beside the original (side by side on every screen), with download and "use as persona photo". */
export function TransformResult({ transform, onUseAsPersona }: { transform: Transform; onUseAsPersona?: () => void }) {
  const { t } = useTranslation();
  const style = t(`transform.styles.${transform.style}`);
  if (!transform.result_url) return null;
  return (
    <section aria-labelledby="transform-result" className="flex flex-col gap-4" data-testid="transform-result">
      <h2 id="transform-result" className="text-lg font-semibold">
        {t('transform.result_title')}
      </h2>
      <div className="grid grid-cols-2 gap-3">
        {transform.original_url && (
          <figure className="overflow-hidden rounded-2xl border border-white/10 bg-surface">
            <img
              src={mediaSrc(transform.original_url)}
              alt={t('transform.original_alt')}
              className="w-full object-contain"
            />
            <figcaption className="px-3 py-2 text-sm text-muted">{t('transform.original')}</figcaption>
          </figure>
        )}
        <figure className="overflow-hidden rounded-2xl border border-primary/40 bg-surface">
          <img
            src={mediaSrc(transform.result_url)}
            alt={t('transform.result_alt', { style })}
            className="w-full object-contain"
            data-testid="transform-result-image"
          />
          <figcaption className="px-3 py-2 text-sm text-muted">
            {t('transform.result')} · {style}
          </figcaption>
        </figure>
      </div>
      <div className="flex flex-wrap gap-3">
        <a
          href={mediaSrc(transform.result_url)}
          download={`reverie-${transform.style}.webp`}
          className="flex items-center gap-2 rounded-full bg-primary px-5 py-2.5 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
        >
          <Icon icon={Download} size="sm" />
          {t('transform.download')}
        </a>
        {onUseAsPersona && (
          <IconTextButton
            icon={UserRound}
            onClick={onUseAsPersona}
            className="flex items-center gap-2 rounded-full border border-white/15 px-5 py-2.5 font-semibold hover:bg-white/5"
          >
            {t('transform.set_persona')}
          </IconTextButton>
        )}
      </div>
    </section>
  );
}
