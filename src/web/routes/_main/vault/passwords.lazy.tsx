import { createLazyFileRoute } from '@tanstack/react-router';
import { PasswordsPage } from '../../../features/vault/passwords-page';

export const Route = createLazyFileRoute('/_main/vault/passwords')({ component: PasswordsPage });
