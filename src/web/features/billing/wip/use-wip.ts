import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../lib/trpc';

type TWip = inferRouterOutputs<AppRouter>['billing']['wip'];
export type TWipListRow = TWip['list']['rows'][number];
export type TWipTotals = TWip['list']['totals'];
type TSentWip = TWip['client'];
type TSentTime = TSentWip['time'][number];

/** An entry with what it refers to named, as the screens show it. */
function named<T extends TSentTime>(e: T, names: TSentWip['names']) {
  return {
    ...e,
    member: { id: e.memberId, name: names.members[e.memberId] ?? '' },
    service: e.serviceId ? { id: e.serviceId, name: names.services[e.serviceId] ?? '' } : null,
    project: e.projectId ? { id: e.projectId, name: names.projects[e.projectId] ?? '' } : null,
    task: e.taskId ? { id: e.taskId, title: names.tasks[e.taskId] ?? '' } : null,
  };
}

/** The server sends each name once (`names`); the screens read them on the entries. */
export function expandWip(wip: TSentWip) {
  return {
    ...wip,
    time: wip.time.map((e) => named(e, wip.names)),
    covered: wip.covered.map((e) => named(e, wip.names)),
  };
}

export type TClientWip = ReturnType<typeof expandWip>;
export type TWipTime = TClientWip['time'][number];
export type TWipCovered = TClientWip['covered'][number];
export type TWipFee = TClientWip['fees'][number];
export type TWipDisbursement = TClientWip['disbursements'][number];
