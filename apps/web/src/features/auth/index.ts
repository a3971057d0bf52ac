export { startProfileLoad, useAuthBootstrap } from './hooks/use-auth-bootstrap';
export { logout, requestVerification, finishOnboarding, loginWithPassword } from './auth-flow';
