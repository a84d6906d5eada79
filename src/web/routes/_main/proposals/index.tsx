import { createFileRoute } from '@tanstack/react-router';

/** /proposals: the firm's proposals and engagement letters, newest first. */
export const Route = createFileRoute('/_main/proposals/')({});
