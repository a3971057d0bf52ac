export { TakedownForm } from './components/takedown-form';
