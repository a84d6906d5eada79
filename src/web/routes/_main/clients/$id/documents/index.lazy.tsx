import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientDocumentsPage } from '../../../../../features/documents/documents-pages';

export const Route = createLazyFileRoute('/_main/clients/$id/documents/')({ component: ClientDocumentsPage });
