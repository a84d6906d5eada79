import { createFileRoute } from '@tanstack/react-router';

/** /admin/hrms/leaves: no route-level guard (admin screens show their own no-access state). */
export const Route = createFileRoute('/_main/admin/hrms/leaves')({});
