import { WEEKDAY_LABELS, WEEKDAYS, ZAllocationInput, ZMemberWork } from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
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
import type { TLeaveTypeRow, TMemberWorkRow } from './parts';

const NONE = 'none';

/** A member's manager (who decides their leave), office (whose holidays apply) and own pattern. */
export function MemberWorkDialog({
  member,
  members,
  onClose,
}: {
  member: TMemberWorkRow | null;
  members: TMemberWorkRow[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.leave.setup.get.queryOptions());
  const [managerId, setManagerId] = useState(NONE);
  const [office, setOffice] = useState(NONE);
  const [own, setOwn] = useState(false);
  const [days, setDays] = useState<number[]>([]);
  const [hours, setHours] = useState('');
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!member) return;
    setManagerId(member.managerId ?? NONE);
    setOffice(member.office ?? NONE);
    setOwn(member.workingDays !== null);
    setDays(member.workingDays ?? settings.data?.workingDays ?? [1, 2, 3, 4, 5]);
    setHours(String((member.minutesPerDay ?? settings.data?.minutesPerDay ?? 480) / 60));
    setTried(false);
  }, [member, settings.data]);
  const save = useMutation(
    trpc.leave.setup.updateMember.mutationOptions({
      onSuccess: () => {
        toast.success('Member saved');
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  const parsed = ZMemberWork.safeParse({
    memberId: member?.memberId ?? '',
    managerId: managerId === NONE ? null : managerId,
    office: office === NONE ? null : office,
    workingDays: own ? days : null,
    minutesPerDay: own ? Math.round(Number(hours) * 60) : null,
  });
  const errorOf = (path: string) =>
    tried && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === path)?.message : undefined;
  const offices = settings.data?.offices ?? [];
  return (
    <DialogRoot open={member !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={member ? `Leave set-up of ${member.name}` : ''}
        description="Their manager decides their leave; their office's holidays apply to them."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="member-work-form" loading={save.isPending}>
              Save
            </Button>
          </>
        }
      >
        <form
          id="member-work-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (parsed.success) save.mutate(parsed.data);
          }}
        >
          <Field label="Manager" error={errorOf('managerId')}>
            <Select
              value={managerId}
              onValueChange={setManagerId}
              options={[
                { value: NONE, label: 'No manager' },
                ...members
                  .filter((m) => m.memberId !== member?.memberId)
                  .map((m) => ({ value: m.memberId, label: m.name })),
              ]}
            />
          </Field>
          <Field label="Office" hint={offices.length ? undefined : 'Add offices under Work pattern'}>
            <Select
              value={office}
              onValueChange={setOffice}
              options={[
                { value: NONE, label: 'No office (firm-wide holidays only)' },
                ...[...new Set([...offices, ...(member?.office ? [member.office] : [])])].map((o) => ({
                  value: o,
                  label: o,
                })),
              ]}
            />
          </Field>
          <Checkbox
            label="Works a pattern of their own"
            checked={own}
            onCheckedChange={(v) => setOwn(v === true)}
          />
          {own ? (
            <>
              <fieldset>
                <legend className="mb-2 text-sm font-medium">Working days</legend>
                <div className="flex flex-wrap gap-3">
                  {WEEKDAYS.map((d) => (
                    <Checkbox
                      key={d}
                      label={WEEKDAY_LABELS[d - 1]}
                      checked={days.includes(d)}
                      onCheckedChange={(on) =>
                        setDays(on === true ? [...days, d] : days.filter((x) => x !== d))
                      }
                    />
                  ))}
                </div>
                {errorOf('workingDays') ? (
                  <p className="mt-1 text-xs text-danger">{errorOf('workingDays')}</p>
                ) : null}
              </fieldset>
              <Field label="Hours in their working day" error={errorOf('minutesPerDay')}>
                <Input inputMode="decimal" value={hours} onChange={(e) => setHours(e.target.value)} />
              </Field>
            </>
          ) : null}
        </form>
      </DialogContent>
    </DialogRoot>
  );
}

/** Adds days to (or, negative, takes days from) a member's balance of one type for a year. */
export function AllocateDialog({
  member,
  year,
  types,
  onClose,
}: {
  member: TMemberWorkRow | null;
  year: number;
  types: TLeaveTypeRow[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [leaveTypeId, setLeaveTypeId] = useState('');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (member) {
      setLeaveTypeId('');
      setAmount('');
      setNote('');
      setTried(false);
    }
  }, [member]);
  const save = useMutation(
    trpc.leave.setup.allocate.mutationOptions({
      onSuccess: () => {
        toast.success('Allocation recorded');
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  // The schema turns days into hundredths: validate here, but send what was typed, as the server parses it too.
  const input = {
    memberId: member?.memberId ?? '',
    leaveTypeId,
    year,
    amount: amount.trim() === '' ? Number.NaN : Number(amount),
    note: note.trim() || undefined,
  };
  const parsed = ZAllocationInput.safeParse(input);
  const errorOf = (path: string) =>
    tried && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === path)?.message : undefined;
  const unit = types.find((t) => t.id === leaveTypeId)?.unit;
  return (
    <DialogRoot open={member !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={member ? `Allocate leave to ${member.name}` : ''}
        description={`Adds to their ${year} balance; a negative amount takes days away. Recorded in the ledger.`}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="allocate-form" loading={save.isPending}>
              Record
            </Button>
          </>
        }
      >
        <form
          id="allocate-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (parsed.success) save.mutate(input);
          }}
        >
          <Field label="Leave type" required error={errorOf('leaveTypeId')}>
            <Select
              value={leaveTypeId || undefined}
              placeholder="Choose a leave type"
              onValueChange={setLeaveTypeId}
              options={types.map((t) => ({ value: t.id, label: t.name }))}
            />
          </Field>
          <Field label={`Amount (${unit === 'hour' ? 'hours' : 'days'})`} required error={errorOf('amount')}>
            <Input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
          </Field>
          <Field label="Note" error={errorOf('note')}>
            <Input value={note} onChange={(e) => setNote(e.target.value)} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
