import { MAX_ENTRY_MINUTES } from '@domain/timesheets-constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';

/** The member's timers, shared by the header and every "Start timer" button. */
export function useTimers(enabled = true) {
  return useQuery(
    trpc.timesheets.timer.current.queryOptions(undefined, { enabled, refetchInterval: 60_000 }),
  );
}

export type TTimer = { id: string; startedAt: Date; stoppedAt: Date | null; note: string };

/** Whatever changed the timer also changed the week's entries. */
export function useTimerRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.timesheets.pathKey() });
}

export function useStartTimer() {
  const refresh = useTimerRefresh();
  return useMutation(
    trpc.timesheets.timer.start.mutationOptions({
      onSuccess: () => toast.success('Timer started'),
      onSettled: refresh,
    }),
  );
}

export function useStopTimer() {
  const refresh = useTimerRefresh();
  return useMutation(
    trpc.timesheets.timer.stop.mutationOptions({
      onSuccess: () => toast.success('Time recorded'),
      onSettled: refresh,
    }),
  );
}

/** Past 12 hours the server asks for the real end time: the screen asks for it straight away. */
export function needsEndTime(timer: TTimer): boolean {
  return Date.now() - timer.startedAt.getTime() > MAX_ENTRY_MINUTES * 60_000;
}

/** "1:05:09" since `since`, ticking every second. */
export function useElapsed(since: Date | null | undefined): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!since) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [since]);
  if (!since) return '';
  const seconds = Math.max(0, Math.floor((now - since.getTime()) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}
