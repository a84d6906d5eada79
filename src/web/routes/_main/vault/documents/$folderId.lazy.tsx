import { createLazyFileRoute } from '@tanstack/react-router';
import { VaultFolderPage } from '../../../../features/documents/documents-pages';

export const Route = createLazyFileRoute('/_main/vault/documents/$folderId')({ component: VaultFolderPage });
