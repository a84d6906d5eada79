import { TZDate } from '@date-fns/tz';
import { MAX_ENTRY_MINUTES } from '@domain/timesheets';
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
  useFormat,
} from '@web/ui';
import { format as formatDate } from 'date-fns';
import { AlertTriangle, CircleStop, Play, Timer, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { useElapsed, useStartTimer, useTimerRefresh, useTimers } from './use-timer';

type TTimer = { id: string; startedAt: Date; stoppedAt: Date | null; note: string };

/** The top bar's timer: elapsed time while it runs, stop or discard; start one for firm time. */
export function TimerControl() {
  const can = useCan('timesheets.create');
  const timers = useTimers(can);
  const [starting, setStarting] = useState(false);
  const [ending, setEnding] = useState<TTimer | null>(null);
  const refresh = useTimerRefresh();
  const stop = useMutation(
    trpc.timesheets.timer.stop.mutationOptions({
      onSuccess: () => toast.success('Time recorded'),
      onSettled: refresh,
    }),
  );
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
    // Past 12 hours the server asks for the real end time: ask for it straight away.
    if (Date.now() - running.startedAt.getTime() > MAX_ENTRY_MINUTES * 60_000) setEnding(running);
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
      {ending ? <EndTimeDialog timer={ending} onClose={() => setEnding(null)} /> : null}
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

const LOCAL = "yyyy-MM-dd'T'HH:mm";

/** The real end of a timer's work, typed in the firm's time. */
function EndTimeDialog({ timer, onClose }: { timer: TTimer; onClose: () => void }) {
  const format = useFormat();
  const zone = format.timeZone;
  const inZone = (d: Date) => formatDate(new TZDate(d.getTime(), zone), LOCAL);
  const [value, setValue] = useState(() => inZone(new Date(timer.startedAt.getTime() + 8 * 60 * 60_000)));
  const refresh = useTimerRefresh();
  const finish = useMutation(
    trpc.timesheets.timer.finish.mutationOptions({
      onSuccess: () => {
        toast.success('Time recorded');
        onClose();
      },
      onSettled: refresh,
    }),
  );
  const endedAt = parseLocal(value, zone);
  return (
    <DialogRoot open onOpenChange={(o) => !o && onClose()}>
      <DialogContent
        title="When did you stop work?"
        description={`The timer started ${format.dateTime(timer.startedAt)}${
          timer.note ? ` (${timer.note})` : ''
        }. An entry can be at most 12 hours.`}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="timer-end-form" loading={finish.isPending} disabled={!endedAt}>
              Record time
            </Button>
          </>
        }
      >
        <form
          id="timer-end-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (endedAt) finish.mutate({ timerId: timer.id, endedAt });
          }}
        >
          <Field label="Stopped at" required error={endedAt ? undefined : 'Give a date and time'}>
            <Input
              type="datetime-local"
              value={value}
              min={inZone(timer.startedAt)}
              max={inZone(timer.stoppedAt ?? new Date())}
              onChange={(e) => setValue(e.target.value)}
            />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}

/** "2026-03-17T17:30" in the firm's zone as an instant; null when it is not a time. */
function parseLocal(value: string, zone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number);
  const date = new TZDate(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, 0, zone);
  return Number.isNaN(date.getTime()) ? null : new Date(date.getTime());
}
