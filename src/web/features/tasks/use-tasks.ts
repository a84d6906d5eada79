import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type AppRouter, trpc } from '../../lib/trpc';

type TTasksOutputs = inferRouterOutputs<AppRouter>['tasks'];
export type TTaskRow = TTasksOutputs['list']['rows'][number];
export type TTaskDetail = TTasksOutputs['get'];
export type TTaskComment = TTasksOutputs['comments']['list'][number];
export type TTaskOptions = TTasksOutputs['options'];

/** Refreshes every tasks query (lists, board columns, the open task, its comments). */
export function useTasksRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.tasks.pathKey() });
}
