import { IconButton } from '@web/ui';
import { CircleStop, Timer } from 'lucide-react';
import { useState } from 'react';
import { EndTimeDialog } from './end-time-dialog';
import {
  needsEndTime,
  type TTimer,
  useElapsed,
  useStartTimer,
  useStopTimer,
  type useTimers,
} from './use-timer';

type TCurrent = NonNullable<ReturnType<typeof useTimers>['data']>;

/**
 * A board card's timer: starts the member's timer on the card's task, and where that timer runs shows
 * it and stops it. The board reads the current timer once and hands it to every card, so a board of
 * many cards asks the server once.
 */
export function TaskTimerButton({
  task,
  current,
}: {
  task: { id: string; title: string };
  current: TCurrent | undefined;
}) {
  const start = useStartTimer();
  const stop = useStopTimer();
  const [ending, setEnding] = useState<TTimer | null>(null);
  const running = current?.running ?? null;
  const mine = running?.taskId === task.id ? running : null;
  const elapsed = useElapsed(mine?.startedAt);
  if (!current) return null;

  if (mine) {
    return (
      <>
        <span className="flex items-center gap-1 rounded-md bg-primary/10 pl-1.5 text-xs text-primary">
          <span className="tabular-nums" data-testid="card-timer-elapsed">
            {elapsed}
          </span>
          <IconButton
            aria-label={`Stop timer for ${task.title}`}
            title="Stop and record"
            size="sm"
            className="text-primary"
            loading={stop.isPending}
            onClick={(e) => {
              e.stopPropagation();
              if (needsEndTime(mine)) setEnding(mine);
              else stop.mutate();
            }}
          >
            <CircleStop />
          </IconButton>
        </span>
        {ending ? <EndTimeDialog timer={ending} onClose={() => setEnding(null)} /> : null}
      </>
    );
  }
  return (
    <IconButton
      aria-label={`Start timer for ${task.title}`}
      title={running ? 'Your timer is already running: stop it in the top bar first' : 'Start timer'}
      size="sm"
      className="text-muted-fg"
      disabled={!!running}
      loading={start.isPending}
      onClick={(e) => {
        e.stopPropagation();
        start.mutate({ taskId: task.id });
      }}
    >
      <Timer />
    </IconButton>
  );
}
