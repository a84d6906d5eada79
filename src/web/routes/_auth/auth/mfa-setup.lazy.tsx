import { createLazyFileRoute } from '@tanstack/react-router';
import { MfaSetupPage } from '../../../features/auth/mfa-setup-page';

export const Route = createLazyFileRoute('/_auth/auth/mfa-setup')({ component: MfaSetupPage });
