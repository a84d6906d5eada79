import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../lib/trpc';

type TOutputs = inferRouterOutputs<AppRouter>;
export type TServiceRow = TOutputs['services']['list']['rows'][number];
export type TServiceClientRow = TOutputs['services']['clients']['rows'][number];
export type TGroupRow = TOutputs['clientGroups']['list']['rows'][number];
export type TEngagementRow = TOutputs['engagements']['listForClient']['rows'][number];
