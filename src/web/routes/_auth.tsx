import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/auth-layout';

/** The auth layout; each route below decides whether it is public. */
export const Route = createFileRoute('/_auth')({ component: AuthLayout });
