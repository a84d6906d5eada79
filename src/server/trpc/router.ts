import { authRouter } from '../features/auth/router';
import { clientPortalProfileRouter, profileRouter } from '../features/profile/router';
import { systemLogRouter } from '../features/system-log/router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  profile: profileRouter,
  clientPortalProfile: clientPortalProfileRouter,
  systemLog: systemLogRouter,
});

export type AppRouter = typeof appRouter;
