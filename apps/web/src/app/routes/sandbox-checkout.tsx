import { SandboxCheckout } from '../../features/billing/components/sandbox-checkout';

/** `/checkout/sandbox/:id`: the sandbox provider's checkout (signed-in payer only). */
export function Component() {
  return <SandboxCheckout />;
}
