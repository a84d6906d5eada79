import { createLazyFileRoute } from '@tanstack/react-router';
import { PortalLoginPage } from '../../../../features/portal-auth/portal-login-page';

export const Route = createLazyFileRoute('/_auth/clientportal/auth/login')({ component: PortalLoginPage });
