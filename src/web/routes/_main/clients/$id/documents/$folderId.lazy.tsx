import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientFolderPage } from '../../../../../features/documents/documents-pages';

export const Route = createLazyFileRoute('/_main/clients/$id/documents/$folderId')({
  component: ClientFolderPage,
});
