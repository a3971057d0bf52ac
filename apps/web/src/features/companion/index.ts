export { CompanionDialog } from './components/companion-dialog';
export { CompanionSettingsForm } from './components/companion-settings';
