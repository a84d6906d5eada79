import { HOLIDAY_PART_LABELS, HOLIDAY_PARTS, type THolidayPart, ZHolidayFields } from '@domain/leave';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  toast,
} from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import type { THolidayRow } from './parts';

export const ALL_OFFICES = 'all';

/** Adds a holiday, or edits the one given: its day, name, office (or the whole firm) and part of the day. */
export function HolidayDialog({
  open,
  holiday,
  offices,
  defaultDate,
  onClose,
}: {
  open: boolean;
  holiday: THolidayRow | null;
  offices: string[];
  defaultDate: string | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [date, setDate] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [office, setOffice] = useState(ALL_OFFICES);
  const [part, setPart] = useState<THolidayPart>('full');
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setDate(holiday?.date ?? defaultDate);
    setName(holiday?.name ?? '');
    setOffice(holiday?.office ?? ALL_OFFICES);
    setPart(holiday?.part ?? 'full');
    setTried(false);
  }, [open, holiday, defaultDate]);
  const done = (message: string) => {
    toast.success(message);
    onClose();
    void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
  };
  const create = useMutation(
    trpc.leave.holidays.create.mutationOptions({ onSuccess: () => done('Holiday added') }),
  );
  const update = useMutation(
    trpc.leave.holidays.update.mutationOptions({ onSuccess: () => done('Holiday saved') }),
  );
  const parsed = ZHolidayFields.safeParse({
    date: date ?? '',
    name,
    office: office === ALL_OFFICES ? null : office,
    part,
  });
  const errorOf = (path: string) =>
    tried && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === path)?.message : undefined;
  return (
    <DialogRoot open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent
        title={holiday ? `Edit ${holiday.name}` : 'New holiday'}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="holiday-form" loading={create.isPending || update.isPending}>
              {holiday ? 'Save holiday' : 'Add holiday'}
            </Button>
          </>
        }
      >
        <form
          id="holiday-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (!parsed.success) return;
            if (holiday) update.mutate({ holidayId: holiday.id, ...parsed.data });
            else create.mutate(parsed.data);
          }}
        >
          <Field label="Name" required error={errorOf('name')}>
            <Input autoFocus value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Date" required error={errorOf('date')}>
            <DatePicker value={date} onChange={setDate} />
          </Field>
          <Field label="Part of the day">
            <Select
              value={part}
              onValueChange={(v) => setPart(v as THolidayPart)}
              options={HOLIDAY_PARTS.map((p) => ({ value: p, label: HOLIDAY_PART_LABELS[p] }))}
            />
          </Field>
          <Field label="Office">
            <Select
              value={office}
              onValueChange={setOffice}
              options={[
                { value: ALL_OFFICES, label: 'Every office' },
                ...offices.map((o) => ({ value: o, label: o })),
              ]}
            />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
