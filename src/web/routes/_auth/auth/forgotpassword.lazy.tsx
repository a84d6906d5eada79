import { createLazyFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../../../features/auth/forgot-password-page';

export const Route = createLazyFileRoute('/_auth/auth/forgotpassword')({ component: ForgotPasswordPage });
