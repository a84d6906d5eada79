import { hasPermission } from '@domain/permissions';
import { createFileRoute } from '@tanstack/react-router';
import { parsePasswordsSearch, passwordsListInput } from '../../../features/vault/passwords-search';

/** /vault/passwords: the list is loaded only for a member who may see the vault. */
export const Route = createFileRoute('/_main/vault/passwords')({
  validateSearch: parsePasswordsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const profile = await context.queryClient.ensureQueryData(context.trpc.profile.me.queryOptions());
    if (!hasPermission({ isOwner: profile.isOwner, permissions: profile.permissions }, 'vault.view')) return;
    await context.queryClient.prefetchQuery(context.trpc.vault.list.queryOptions(passwordsListInput(deps)));
  },
});
