import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../lib/trpc';

type TWip = inferRouterOutputs<AppRouter>['billing']['wip'];
export type TWipListRow = TWip['list']['rows'][number];
export type TWipTotals = TWip['list']['totals'];
export type TClientWip = TWip['client'];
export type TWipTime = TClientWip['time'][number];
export type TWipCovered = TClientWip['covered'][number];
export type TWipFee = TClientWip['fees'][number];
export type TWipDisbursement = TClientWip['disbursements'][number];
