import { createFileRoute } from '@tanstack/react-router';

/** /admin/statutory: the catalogue of statutory filings and the firm's extensions (issue 39). */
export const Route = createFileRoute('/_main/admin/statutory/')({});
