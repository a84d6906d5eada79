import { createFileRoute } from '@tanstack/react-router';

/** /admin/templates/requests: the firm's request templates. */
export const Route = createFileRoute('/_main/admin/templates/requests/')({});
