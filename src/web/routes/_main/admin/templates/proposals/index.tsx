import { createFileRoute } from '@tanstack/react-router';

/** /admin/templates/proposals: the firm's proposal and engagement-letter templates. */
export const Route = createFileRoute('/_main/admin/templates/proposals/')({});
