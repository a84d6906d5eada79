import { TZDate } from '@date-fns/tz';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  toast,
  useFormat,
} from '@web/ui';
import { format as formatDate } from 'date-fns';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { type TTimer, useTimerRefresh } from './use-timer';

const LOCAL = "yyyy-MM-dd'T'HH:mm";

/** The real end of a timer's work, typed in the firm's time. */
export function EndTimeDialog({ timer, onClose }: { timer: TTimer; onClose: () => void }) {
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
