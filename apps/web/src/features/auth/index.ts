export { useAuthBootstrap } from './hooks/use-auth-bootstrap';
export { VerifyEmailBanner } from './components/verify-email-banner';
export { logout, requestVerification, finishOnboarding, loginWithPassword } from './auth-flow';
