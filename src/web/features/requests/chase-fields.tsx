import { type TChaseSchedule, type TChaseScheduleInput, ZChaseSchedule } from '@domain/requests/chase';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Field, Input } from '@web/ui';
import { trpc } from '../../lib/trpc';

// The reminder schedule as a person types it: the days before the due date as "7, 1", a tick for
// the due date, and "every N days" after it. Shared by firm settings, the send dialog and a
// request's page; the same zod schema as the server reads what they make.

export type TChaseDraft = { before: string; onDue: boolean; every: string };

export const toChaseDraft = (s: TChaseSchedule): TChaseDraft => ({
  before: s.beforeDays.join(', '),
  onDue: s.onDue,
  every: s.everyDays ? String(s.everyDays) : '',
});

export function fromChaseDraft(d: TChaseDraft): TChaseScheduleInput {
  const before = d.before
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((x) => (/^\d+$/.test(x) ? Number(x) : Number.NaN));
  return { beforeDays: before, onDue: d.onDue, everyDays: d.every.trim() ? Number(d.every) : null };
}

/** The parsed schedule, or the message for each field that needs attention. */
export function parseChaseDraft(d: TChaseDraft) {
  const parsed = ZChaseSchedule.safeParse(fromChaseDraft(d));
  const errors = new Map<string, string>();
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0]);
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return { schedule: parsed.success ? parsed.data : null, errors };
}

export function ChaseFields({
  value,
  onChange,
  errors,
  idPrefix,
}: {
  value: TChaseDraft;
  onChange: (next: TChaseDraft) => void;
  errors: Map<string, string>;
  idPrefix: string;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Field
        id={`${idPrefix}-before`}
        label="Days before the due date"
        hint="Separated by commas, such as 7, 1; empty for none"
        error={errors.get('beforeDays')}
      >
        <Input
          inputMode="numeric"
          value={value.before}
          onChange={(e) => onChange({ ...value, before: e.target.value })}
        />
      </Field>
      <div className="flex items-center sm:pt-6">
        <Checkbox
          label="On the due date"
          checked={value.onDue}
          onCheckedChange={(v) => onChange({ ...value, onDue: v === true })}
        />
      </div>
      <Field
        id={`${idPrefix}-every`}
        label="Then every (days)"
        hint="After the due date; empty for none"
        error={errors.get('everyDays')}
      >
        <Input
          type="number"
          min={1}
          inputMode="numeric"
          value={value.every}
          onChange={(e) => onChange({ ...value, every: e.target.value })}
        />
      </Field>
    </div>
  );
}

/**
 * The send dialog's reminders: the firm's default in one line, or (after "Change") the fields.
 * `value` null means the firm's default, which the server copies.
 */
export function SendChaseFields({
  value,
  onChange,
  errors,
}: {
  value: TChaseDraft | null;
  onChange: (next: TChaseDraft | null) => void;
  errors: Map<string, string>;
}) {
  const firm = useQuery(trpc.requests.chaseSettings.queryOptions());
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Reminders</legend>
      {value ? (
        <ChaseFields value={value} onChange={onChange} errors={errors} idPrefix="send-chase" />
      ) : (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>
            {firm.data ? `${firm.data.summary} (the firm's default)` : 'The firm’s default schedule'}, until
            the client submits.
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={!firm.data}
            onClick={() => firm.data && onChange(toChaseDraft(firm.data.schedule))}
          >
            Change reminders
          </Button>
        </div>
      )}
    </fieldset>
  );
}
