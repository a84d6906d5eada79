import { hasPermission } from '../../../domain/permissions';
import {
  ZVaultClientSearch,
  ZVaultEntryInput,
  ZVaultListInput,
  ZVaultRef,
  ZVaultReveal,
  ZVaultUpdate,
} from '../../../domain/vault';
import { router, TRPCError } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { vaultKeyring } from './keys';
import {
  clientOptions,
  createEntry,
  deleteEntry,
  getEntry,
  listEntries,
  listFacets,
  revealPassword,
  updateEntry,
} from './service';

/** Revealing needs the special right and sight of the vault itself. */
const revealProcedure = permissionProcedure('vault.reveal').use(({ ctx, next }) => {
  if (!hasPermission(ctx.scope, 'vault.view')) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do this' });
  }
  return next();
});

export const vaultRouter = router({
  list: permissionProcedure('vault.view')
    .input(ZVaultListInput)
    .query(({ ctx, input }) => listEntries(ctx.db, ctx.scope, input)),
  get: permissionProcedure('vault.view')
    .input(ZVaultRef)
    .query(({ ctx, input }) => getEntry(ctx.db, ctx.scope, input.id)),
  /** The list's filter choices. */
  facets: permissionProcedure('vault.view').query(({ ctx }) => listFacets(ctx.db, ctx.scope)),
  /** The form's client picker: clients this member may file an entry under. */
  clients: permissionProcedure('vault.view')
    .input(ZVaultClientSearch)
    .query(({ ctx, input }) => clientOptions(ctx.db, ctx.scope, input.search)),
  create: permissionProcedure('vault.create')
    .input(ZVaultEntryInput)
    .mutation(async ({ ctx, input }) =>
      createEntry(ctx.db, await vaultKeyring(ctx.config), ctx.scope, input, ctx.meta),
    ),
  update: permissionProcedure('vault.edit')
    .input(ZVaultUpdate)
    .mutation(async ({ ctx, input }) =>
      updateEntry(ctx.db, await vaultKeyring(ctx.config), ctx.scope, input.id, input.data, ctx.meta),
    ),
  delete: permissionProcedure('vault.delete')
    .input(ZVaultRef)
    .mutation(({ ctx, input }) => deleteEntry(ctx.db, ctx.scope, input.id, ctx.meta)),
  /** A mutation, not a query: it writes a log row, and nothing may cache or prefetch a password. */
  reveal: revealProcedure
    .input(ZVaultReveal)
    .mutation(async ({ ctx, input }) =>
      revealPassword(ctx.db, await vaultKeyring(ctx.config), ctx.scope, input, ctx.meta),
    ),
});
