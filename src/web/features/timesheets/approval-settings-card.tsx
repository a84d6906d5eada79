import { DAILY_LIMIT_HELP, ZApprovalSettings } from '@domain/timesheet-approval';
import { formatMinutes } from '@domain/timesheets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Input,
  Select,
  Skeleton,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';

// Radix Select forbids an empty value: this stands for "nobody named", which means the owner.
const OWNER = 'owner';

/** Firm settings, Work: the day past which time is flagged, and who approves the approvers' weeks. */
export function ApprovalSettingsCard({ canEdit }: { canEdit: boolean }) {
  const settings = useQuery(trpc.timesheets.approvalSettings.queryOptions());
  return (
    <Card id="work-timesheets" aria-labelledby="work-timesheets-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="work-timesheets-title">Timesheet approval</CardTitle>
          <CardDescription>
            Nobody approves their own time. Days past the limit, on holidays, leave or days off are flagged to
            the approver.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <ApprovalForm canEdit={canEdit} saved={settings.data} />
        ) : (
          <Skeleton className="h-24 w-full" />
        )}
      </CardContent>
    </Card>
  );
}

type TSaved = {
  dailyLimitMinutes: number;
  approversApproverId: string | null;
  candidates: { id: string; name: string }[];
};

function ApprovalForm({ canEdit, saved }: { canEdit: boolean; saved: TSaved }) {
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(formatMinutes(saved.dailyLimitMinutes));
  const [approver, setApprover] = useState(saved.approversApproverId ?? OWNER);
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = useMutation(
    trpc.timesheets.setApprovalSettings.mutationOptions({
      onSuccess: async () => {
        toast.success('Timesheet approval saved');
        await queryClient.invalidateQueries({ queryKey: trpc.timesheets.pathKey() });
      },
    }),
  );
  return (
    <form
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        // The same schema as the server: a limit it would refuse is said here, by the field.
        const parsed = ZApprovalSettings.safeParse({
          dailyLimitMinutes: limit,
          approversApproverId: approver === OWNER ? null : approver,
        });
        setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? DAILY_LIMIT_HELP));
        if (parsed.success) save.mutate(parsed.data);
      }}
    >
      <Field
        label="Daily limit"
        hint="Hours in a day before the day is flagged, like 10 or 9:30"
        error={invalid ?? save.error?.message}
      >
        <Input
          value={limit}
          disabled={!canEdit}
          onChange={(e) => setLimit(e.target.value)}
          inputMode="decimal"
        />
      </Field>
      <Field label="Approves the approvers" hint="Decides the weeks of those who approve timesheets">
        <Select
          value={approver}
          disabled={!canEdit}
          onValueChange={setApprover}
          options={[
            { value: OWNER, label: 'The owner (nobody named)' },
            ...saved.candidates.map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
      </Field>
      {canEdit ? (
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" loading={save.isPending}>
            Save approval rules
          </Button>
        </div>
      ) : null}
    </form>
  );
}
