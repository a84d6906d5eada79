import { ZApiKeyCreate, ZApiKeyRef } from '../../../domain/api-keys';
import { router } from '../../trpc/init';
import { permissionProcedure } from '../../trpc/procedures';
import { createApiKey, listApiKeys, revokeApiKey } from './keys';

// The firm's API keys, managed by whoever may change the firm's settings (owner, admin).
const manage = permissionProcedure('settings.edit');

export const apiKeysRouter = router({
  list: manage.query(({ ctx }) => listApiKeys(ctx.db, ctx.scope)),
  create: manage
    .input(ZApiKeyCreate)
    .mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.scope, input, ctx.meta)),
  revoke: manage
    .input(ZApiKeyRef)
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.scope, input.apiKeyId, ctx.meta)),
});
