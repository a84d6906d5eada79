import { createLazyFileRoute } from '@tanstack/react-router';
import { VaultDocumentsPage } from '../../../../features/documents/documents-pages';

export const Route = createLazyFileRoute('/_main/vault/documents/')({ component: VaultDocumentsPage });
