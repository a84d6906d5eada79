import { createLazyFileRoute } from '@tanstack/react-router';
import { RegisterPage } from '../../features/auth/register-page';

export const Route = createLazyFileRoute('/auth/register')({ component: RegisterPage });
