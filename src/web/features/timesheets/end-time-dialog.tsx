import { todayIn } from '@domain/days';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  DateTimePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  toast,
  useFormat,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { type TTimer, useTimerRefresh } from './use-timer';

/** The real end of a timer's work, typed in the firm's time. */
export function EndTimeDialog({ timer, onClose }: { timer: TTimer; onClose: () => void }) {
  const format = useFormat();
  const zone = format.timeZone;
  const [endedAt, setEndedAt] = useState<Date | null>(
    () => new Date(timer.startedAt.getTime() + 8 * 60 * 60_000),
  );
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
            <DateTimePicker
              value={endedAt}
              onChange={setEndedAt}
              clearable={false}
              min={todayIn(zone, timer.startedAt)}
              max={todayIn(zone, timer.stoppedAt ?? new Date())}
            />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
