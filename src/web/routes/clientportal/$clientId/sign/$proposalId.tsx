import { createFileRoute } from '@tanstack/react-router';

/** /clientportal/{clientId}/sign/{proposalId}: review and sign, signed in (no mailed code). */
export const Route = createFileRoute('/clientportal/$clientId/sign/$proposalId')({});
