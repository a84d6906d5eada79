import { createFileRoute } from '@tanstack/react-router';

/** /vault/documents: the firm's own document tree (the vault), at its top folder. */
export const Route = createFileRoute('/_main/vault/documents/')({});
