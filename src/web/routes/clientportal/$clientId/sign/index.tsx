import { createFileRoute } from '@tanstack/react-router';

/** /clientportal/{clientId}/sign: what waits on this person's signature for the client. */
export const Route = createFileRoute('/clientportal/$clientId/sign/')({});
