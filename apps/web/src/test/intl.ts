type Kind = 'DateTimeFormat' | 'NumberFormat' | 'RelativeTimeFormat';
const restores: (() => void)[] = [];

/** Counts the `Intl` formatters of a kind made from now on (real ones); `restoreIntl` undoes it. */
export function countIntlMade(kind: Kind): { made: number } {
  const counter = { made: 0 };
  const Real = Intl[kind] as unknown as new (...args: unknown[]) => object;
  const Counted = class extends Real {
    constructor(...args: unknown[]) {
      super(...args);
      counter.made++;
    }
  };
  Object.defineProperty(Intl, kind, { value: Counted, configurable: true, writable: true });
  restores.push(() => Object.defineProperty(Intl, kind, { value: Real, configurable: true, writable: true }));
  return counter;
}

/** Puts the real `Intl` formatters back (in an `afterEach`). */
export function restoreIntl(): void {
  for (const restore of restores.splice(0).reverse()) restore();
}
