import { createLazyFileRoute } from '@tanstack/react-router';
import { SecurityPage } from '../../../features/account/security-page';

export const Route = createLazyFileRoute('/_main/my-account/security')({ component: SecurityPage });
