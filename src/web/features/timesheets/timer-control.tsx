import { useMutation } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  Field,
  Input,
  toast,
} from '@web/ui';
import { AlertTriangle, CircleStop, Play, Timer, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import {
  needsEndTime,
  type TTimer,
  useElapsed,
  useStartTimer,
  useStopTimer,
  useTimerRefresh,
  useTimers,
} from './use-timer';

// The end-time dialog (with its date and time picker, 17 KB) is fetched when a timer needs it, not
// with every staff page.
const EndTimeDialog = lazy(() => import('./end-time-dialog').then((m) => ({ default: m.EndTimeDialog })));

/** The top bar's timer: elapsed time while it runs, stop or discard; start one for firm time. */
export function TimerControl() {
  const can = useCan('timesheets.create');
  const timers = useTimers(can);
  const [starting, setStarting] = useState(false);
  const [ending, setEnding] = useState<TTimer | null>(null);
  const refresh = useTimerRefresh();
  const stop = useStopTimer();
  const discard = useMutation(
    trpc.timesheets.timer.discard.mutationOptions({
      onSuccess: () => toast.success('Timer discarded'),
      onSettled: refresh,
    }),
  );
  const running = timers.data?.running ?? null;
  const elapsed = useElapsed(running?.startedAt);
  if (!can || !timers.data) return null;
  const [waiting] = timers.data.waiting;

  const onStop = () => {
    if (!running) return;
    if (needsEndTime(running)) setEnding(running);
    else stop.mutate();
  };

  return (
    <>
      {waiting ? (
        <Button
          variant="outline"
          size="sm"
          className="text-warning"
          aria-label="Timer stopped: give the end time"
          onClick={() => setEnding(waiting)}
        >
          <AlertTriangle aria-hidden />
          <span className="hidden sm:inline">Timer stopped: give the end time</span>
        </Button>
      ) : null}
      {running ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" aria-label={`Timer running, ${elapsed}`}>
              <Timer aria-hidden className="text-primary" />
              <span className="tabular-nums" data-testid="timer-elapsed">
                {elapsed}
              </span>
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuLabel className="max-w-64 truncate">
              {running.taskTitle ?? running.clientName ?? (running.note || 'Firm time')}
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onStop}>
              <CircleStop aria-hidden />
              Stop and record
            </DropdownMenuItem>
            <DropdownMenuItem danger onSelect={() => discard.mutate({ timerId: running.id })}>
              <Trash2 aria-hidden />
              Discard
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ) : (
        <Button variant="ghost" size="sm" aria-label="Start timer" onClick={() => setStarting(true)}>
          <Play aria-hidden />
          <span className="hidden sm:inline">Start timer</span>
        </Button>
      )}
      {starting ? <StartDialog onClose={() => setStarting(false)} /> : null}
      {ending ? (
        <Suspense fallback={null}>
          <EndTimeDialog timer={ending} onClose={() => setEnding(null)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** A timer for firm time: what it is for. */
function StartDialog({ onClose }: { onClose: () => void }) {
  const [note, setNote] = useState('');
  const start = useStartTimer();
  return (
    <DialogRoot open onOpenChange={(o) => !o && onClose()}>
      <DialogContent
        title="Start a timer"
        description="For firm time; start one on a client's work from its task."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="timer-start-form" loading={start.isPending}>
              Start timer
            </Button>
          </>
        }
      >
        <form
          id="timer-start-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            start.mutate({ note: note.trim() }, { onSuccess: onClose });
          }}
        >
          <Field label="What are you working on?" required>
            <Input autoFocus value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
