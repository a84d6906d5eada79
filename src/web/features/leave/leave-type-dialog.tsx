import {
  ACCRUAL_LABELS,
  ACCRUALS,
  formatAmount,
  LEAVE_UNIT_LABELS,
  LEAVE_UNITS,
  ROUNDING_LABELS,
  ROUNDINGS,
  type TLeaveTypeInput,
  ZLeaveTypeFields,
} from '@domain/leave';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import type { TLeaveTypeRow } from './parts';

type TDraft = {
  name: string;
  paid: boolean;
  unit: string;
  accrual: string;
  allowance: string;
  rounding: string;
  carryForwardCap: string;
  carryForwardExpiryMonths: string;
  allowNegative: boolean;
  countWeekends: boolean;
  countHolidays: boolean;
  maxConsecutiveDays: string;
  attachmentAfterDays: string;
};

const BLANK: TDraft = {
  name: '',
  paid: true,
  unit: 'day',
  accrual: 'yearly',
  allowance: '',
  rounding: 'none',
  carryForwardCap: '',
  carryForwardExpiryMonths: '',
  allowNegative: false,
  countWeekends: false,
  countHolidays: false,
  maxConsecutiveDays: '',
  attachmentAfterDays: '',
};

const draftOf = (t: TLeaveTypeRow): TDraft => ({
  ...t,
  allowance: formatAmount(t.allowance),
  carryForwardCap: t.carryForwardCap === null ? '' : formatAmount(t.carryForwardCap),
  carryForwardExpiryMonths: t.carryForwardExpiryMonths?.toString() ?? '',
  maxConsecutiveDays: t.maxConsecutiveDays?.toString() ?? '',
  attachmentAfterDays: t.attachmentAfterDays?.toString() ?? '',
});

/** An empty box is "none" (no cap, no limit); anything else must read as a number. */
const numberOrNull = (s: string) => (s.trim() === '' ? null : Number(s));

/** Creates a leave type, or edits the one given, with every rule it carries. */
export function LeaveTypeDialog({
  open,
  onOpenChange,
  type,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  type: TLeaveTypeRow | null;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TDraft>(BLANK);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (open) {
      setDraft(type ? draftOf(type) : BLANK);
      setTried(false);
    }
  }, [open, type]);
  // The schema turns days into hundredths: validate here, but send what was typed, as the server parses it too.
  const input = {
    ...draft,
    unit: draft.unit as TLeaveTypeInput['unit'],
    accrual: draft.accrual as TLeaveTypeInput['accrual'],
    rounding: draft.rounding as TLeaveTypeInput['rounding'],
    allowance: draft.allowance.trim() === '' ? Number.NaN : Number(draft.allowance),
    carryForwardCap: numberOrNull(draft.carryForwardCap),
    carryForwardExpiryMonths: numberOrNull(draft.carryForwardExpiryMonths),
    maxConsecutiveDays: numberOrNull(draft.maxConsecutiveDays),
    attachmentAfterDays: numberOrNull(draft.attachmentAfterDays),
  };
  const parsed = ZLeaveTypeFields.safeParse(input);
  const errorOf = (path: keyof TDraft) =>
    tried && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === path)?.message : undefined;
  const done = (message: string) => {
    toast.success(message);
    onOpenChange(false);
    void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
  };
  const create = useMutation(
    trpc.leave.types.create.mutationOptions({ onSuccess: () => done('Leave type added') }),
  );
  const update = useMutation(
    trpc.leave.types.update.mutationOptions({ onSuccess: () => done('Leave type saved') }),
  );
  const set = <K extends keyof TDraft>(key: K, value: TDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const unitWord = draft.unit === 'hour' ? 'hours' : 'days';
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={type ? `Edit ${type.name}` : 'New leave type'}
        description="How much a member gets, how it is counted and what carries into the next year."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="leave-type-form" loading={create.isPending || update.isPending}>
              {type ? 'Save leave type' : 'Add leave type'}
            </Button>
          </>
        }
      >
        <form
          id="leave-type-form"
          noValidate
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (!parsed.success) return;
            if (type) update.mutate({ leaveTypeId: type.id, ...input });
            else create.mutate(input);
          }}
        >
          <Field label="Name" required error={errorOf('name')} className="sm:col-span-2">
            <Input autoFocus value={draft.name} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <Field label="Counted in">
            <Select
              value={draft.unit}
              options={LEAVE_UNITS.map((u) => ({ value: u, label: LEAVE_UNIT_LABELS[u] }))}
              onValueChange={(v) => set('unit', v)}
            />
          </Field>
          <Field label={`Allowance a year (${unitWord})`} required error={errorOf('allowance')}>
            <Input
              inputMode="decimal"
              value={draft.allowance}
              onChange={(e) => set('allowance', e.target.value)}
            />
          </Field>
          <Field label="Accrual">
            <Select
              value={draft.accrual}
              options={ACCRUALS.map((a) => ({ value: a, label: ACCRUAL_LABELS[a] }))}
              onValueChange={(v) => set('accrual', v)}
            />
          </Field>
          <Field label="Rounding of accruals">
            <Select
              value={draft.rounding}
              options={ROUNDINGS.map((r) => ({ value: r, label: ROUNDING_LABELS[r] }))}
              onValueChange={(v) => set('rounding', v)}
            />
          </Field>
          <Field
            label={`Carry forward at most (${unitWord})`}
            hint="Empty: no limit; 0: nothing carries"
            error={errorOf('carryForwardCap')}
          >
            <Input
              inputMode="decimal"
              value={draft.carryForwardCap}
              onChange={(e) => set('carryForwardCap', e.target.value)}
            />
          </Field>
          <Field
            label="Carried days lapse after (months)"
            hint="Empty: they never lapse"
            error={errorOf('carryForwardExpiryMonths')}
          >
            <Input
              inputMode="numeric"
              value={draft.carryForwardExpiryMonths}
              onChange={(e) => set('carryForwardExpiryMonths', e.target.value)}
            />
          </Field>
          <Field
            label="Most days in one request"
            hint="Empty: no limit"
            error={errorOf('maxConsecutiveDays')}
          >
            <Input
              inputMode="numeric"
              value={draft.maxConsecutiveDays}
              onChange={(e) => set('maxConsecutiveDays', e.target.value)}
            />
          </Field>
          <Field
            label="Attachment required for requests longer than (days)"
            hint="A medical certificate, say. Empty: never required"
            error={errorOf('attachmentAfterDays')}
          >
            <Input
              inputMode="numeric"
              value={draft.attachmentAfterDays}
              onChange={(e) => set('attachmentAfterDays', e.target.value)}
            />
          </Field>
          <fieldset className="flex flex-col gap-2 sm:col-span-2">
            <legend className="mb-1 text-sm font-medium">Rules</legend>
            <Checkbox label="Paid" checked={draft.paid} onCheckedChange={(v) => set('paid', v === true)} />
            <Checkbox
              label="May go below zero"
              checked={draft.allowNegative}
              onCheckedChange={(v) => set('allowNegative', v === true)}
            />
            <Checkbox
              label="Weekends count as leave"
              checked={draft.countWeekends}
              onCheckedChange={(v) => set('countWeekends', v === true)}
            />
            <Checkbox
              label="Holidays count as leave"
              checked={draft.countHolidays}
              onCheckedChange={(v) => set('countHolidays', v === true)}
            />
          </fieldset>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
