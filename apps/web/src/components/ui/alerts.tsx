import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { CheckCircle2, Info, TriangleAlert, X, XCircle } from 'lucide-react';
import { ALERT_DEFAULTS } from '@reverie/shared';
import { Icon } from './icon';

export type AlertType = 'success' | 'error' | 'warning' | 'info';
export interface Alert {
  id: number;
  type: AlertType;
  text: string;
  closable: boolean;
  /** A link after the text (e.g. "My characters" after creating one); following it closes the alert. */
  action?: { label: string; to: string };
}

let alerts: Alert[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function dismissAlert(id: number): void {
  alerts = alerts.filter((a) => a.id !== id);
  emit();
}

/** At most this many alerts show at once. */
const MAX_ALERTS = 3;

/**
 * Shows an alert top-right (spec §9): success by default, closes itself after 5000 ms
 * (0 keeps it open), closable.
 */
export function showAlert(
  text: string,
  options: { type?: AlertType; autoCloseMs?: number; closable?: boolean; action?: Alert['action'] } = {},
): number {
  const alert: Alert = {
    id: nextId++,
    type: options.type ?? ALERT_DEFAULTS.type,
    text,
    closable: options.closable ?? ALERT_DEFAULTS.closable,
    ...(options.action ? { action: options.action } : {}),
  };
  // The same words again (three memories added in a row) show once, with a fresh timer; and a
  // few at most, the oldest giving way: a stack of them covered a phone's header.
  const others = alerts.filter((a) => a.text !== alert.text || a.type !== alert.type);
  alerts = [...others.slice(-(MAX_ALERTS - 1)), alert];
  emit();
  const autoClose = options.autoCloseMs ?? ALERT_DEFAULTS.autoCloseMs;
  if (autoClose > 0) setTimeout(() => dismissAlert(alert.id), autoClose);
  return alert.id;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const STYLES: Record<AlertType, { icon: typeof Info; className: string }> = {
  success: { icon: CheckCircle2, className: 'border-emerald-400/40 bg-emerald-950/90 text-emerald-50' },
  error: { icon: XCircle, className: 'border-red-400/40 bg-red-950/90 text-red-50' },
  warning: { icon: TriangleAlert, className: 'border-amber-400/40 bg-amber-950/90 text-amber-50' },
  info: { icon: Info, className: 'border-sky-400/40 bg-sky-950/90 text-sky-50' },
};

export function AlertStack() {
  const { t } = useTranslation();
  const current = useSyncExternalStore(
    subscribe,
    () => alerts,
    () => alerts,
  );
  return (
    <div
      aria-label={t('alerts.region')}
      className="pointer-events-none fixed top-3 right-3 z-[60] flex w-[min(24rem,calc(100vw-1.5rem))] flex-col gap-2"
    >
      {current.map((alert) => {
        const style = STYLES[alert.type];
        return (
          <div
            key={alert.id}
            role={alert.type === 'error' ? 'alert' : 'status'}
            data-alert-type={alert.type}
            className={`pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-xl backdrop-blur ${style.className}`}
          >
            <Icon icon={style.icon} size="md" className="mt-0.5 shrink-0" />
            <p className="flex-1 leading-snug">
              {alert.text}
              {alert.action && (
                <>
                  {' '}
                  <Link
                    to={alert.action.to}
                    onClick={() => dismissAlert(alert.id)}
                    className="font-semibold underline underline-offset-2"
                  >
                    {alert.action.label}
                  </Link>
                </>
              )}
            </p>
            {alert.closable && (
              <button
                type="button"
                onClick={() => dismissAlert(alert.id)}
                className="-m-1 rounded p-1 opacity-70 hover:opacity-100"
                aria-label={t('alerts.close')}
              >
                <Icon icon={X} size="sm" />
              </button>
            )}
          </div>
        );
      })}
    </div>
  );
}
