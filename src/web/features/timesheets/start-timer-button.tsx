import { Button } from '@web/ui';
import { Timer } from 'lucide-react';
import { useCan } from '../shell/access';
import { useStartTimer, useTimers } from './use-timer';

/** Starts the member's timer on a task; hidden without the right, disabled while one runs. */
export function StartTimerButton({ taskId }: { taskId: string }) {
  const can = useCan('timesheets.create');
  const timers = useTimers(can);
  const start = useStartTimer();
  if (!can) return null;
  const running = timers.data?.running;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={start.isPending}
      disabled={!!running}
      title={running ? 'Your timer is already running: stop it in the top bar first' : undefined}
      onClick={() => start.mutate({ taskId })}
    >
      <Timer aria-hidden />
      {running?.taskId === taskId ? 'Timer running' : 'Start timer'}
    </Button>
  );
}
