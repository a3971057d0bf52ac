import { Check } from 'lucide-react';
import { TRANSFORM_STYLES, type TransformStyle } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { useTranslation } from '../../../lib/i18n';

/** The look of each style's tile before there is a preview: a gradient in the style's colours. */
const SWATCHES: Record<TransformStyle, string> = {
  anime: 'from-sky-400 via-pink-300 to-amber-200',
  comic: 'from-yellow-300 via-red-500 to-blue-700',
  watercolour: 'from-teal-200 via-sky-200 to-rose-200',
  pencil: 'from-stone-100 via-stone-300 to-stone-500',
  oil: 'from-amber-700 via-emerald-700 to-sky-800',
  pop_art: 'from-fuchsia-500 via-yellow-300 to-cyan-400',
  cyberpunk: 'from-indigo-950 via-fuchsia-600 to-cyan-300',
  vintage: 'from-amber-100 via-orange-300 to-stone-600',
};

export interface StylePickerProps {
  value: TransformStyle;
  onChange: (style: TransformStyle) => void;
  /** Each style applied to a small copy of the user's photo, when made. */
  previews: Partial<Record<TransformStyle, string>>;
  loading: boolean;
  disabled?: boolean;
}

/** Eight style tiles with live previews of the user's photo: two columns on a phone, four on a desktop. */
export function StylePicker({ value, onChange, previews, loading, disabled }: StylePickerProps) {
  const { t } = useTranslation();
  return (
    <div role="radiogroup" aria-label={t('transform.step_style')} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {TRANSFORM_STYLES.map((style) => {
        const selected = style === value;
        const preview = previews[style];
        return (
          <button
            key={style}
            type="button"
            role="radio"
            aria-checked={selected}
            disabled={disabled}
            onClick={() => onChange(style)}
            data-testid={`style-${style}`}
            className={`group relative overflow-hidden rounded-2xl border text-left transition focus-visible:outline-2 focus-visible:outline-primary disabled:opacity-60 ${
              selected ? 'border-primary ring-2 ring-primary/50' : 'border-white/10 hover:border-white/30'
            }`}
          >
            <div className={`aspect-[4/5] w-full bg-gradient-to-br ${SWATCHES[style]}`}>
              {preview ? (
                <img src={preview} alt="" className="h-full w-full object-cover" draggable={false} />
              ) : (
                loading && <div className="h-full w-full animate-pulse bg-black/20" aria-hidden="true" />
              )}
            </div>
            <div className="flex items-center justify-between gap-2 bg-surface px-3 py-2">
              <span className="truncate text-sm font-medium">{t(`transform.styles.${style}`)}</span>
              {selected && <Icon icon={Check} size="sm" className="shrink-0 text-primary" />}
            </div>
          </button>
        );
      })}
    </div>
  );
}
