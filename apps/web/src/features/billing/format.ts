// Prices, dates and countdowns come from the one formatter module of the web app.
export { formatCountdown, formatDate, formatPrice } from '../../lib/format';
