import { type TLeaveSettings, WEEKDAY_LABELS, WEEKDAYS, ZLeaveSettings } from '@domain/leave';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, CardContent, Checkbox, Field, Input, Skeleton, toast } from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';

type TDraft = {
  workingDays: number[];
  hours: string;
  offices: string;
  secondLevelAfterDays: string;
  awayWarnPercent: string;
};

const draftOf = (s: TLeaveSettings): TDraft => ({
  workingDays: s.workingDays,
  hours: String(s.minutesPerDay / 60),
  offices: s.offices.join(', '),
  secondLevelAfterDays: s.secondLevelAfterDays?.toString() ?? '',
  awayWarnPercent: String(s.awayWarnPercent),
});

/** The firm's working week, its offices, when a second approval is needed and when to warn of absence. */
export function WorkPatternCard() {
  const queryClient = useQueryClient();
  const canEdit = useCan('leaves.edit');
  const settings = useQuery(trpc.leave.setup.get.queryOptions());
  const [draft, setDraft] = useState<TDraft | null>(null);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (settings.data) setDraft(draftOf(settings.data));
  }, [settings.data]);
  const save = useMutation(
    trpc.leave.setup.update.mutationOptions({
      onSuccess: () => {
        toast.success('Work pattern saved');
        setTried(false);
        void queryClient.invalidateQueries({ queryKey: trpc.leave.pathKey() });
      },
    }),
  );
  if (!draft) return <Skeleton className="h-64" />;
  const parsed = ZLeaveSettings.safeParse({
    workingDays: draft.workingDays,
    minutesPerDay: Math.round(Number(draft.hours) * 60),
    offices: draft.offices
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    secondLevelAfterDays:
      draft.secondLevelAfterDays.trim() === '' ? null : Number(draft.secondLevelAfterDays),
    awayWarnPercent: Number(draft.awayWarnPercent),
  });
  const errorOf = (path: string) =>
    tried && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === path)?.message : undefined;
  const set = <K extends keyof TDraft>(key: K, value: TDraft[K]) => setDraft({ ...draft, [key]: value });
  return (
    <Card>
      <CardContent className="pt-5">
        <form
          noValidate
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (parsed.success) save.mutate(parsed.data);
          }}
        >
          <fieldset className="sm:col-span-2" disabled={!canEdit}>
            <legend className="mb-2 text-sm font-medium">Working days</legend>
            <div className="flex flex-wrap gap-4">
              {WEEKDAYS.map((d) => (
                <Checkbox
                  key={d}
                  label={WEEKDAY_LABELS[d - 1]}
                  disabled={!canEdit}
                  checked={draft.workingDays.includes(d)}
                  onCheckedChange={(on) =>
                    set(
                      'workingDays',
                      on === true ? [...draft.workingDays, d] : draft.workingDays.filter((x) => x !== d),
                    )
                  }
                />
              ))}
            </div>
            {errorOf('workingDays') ? (
              <p className="mt-1 text-xs text-danger">{errorOf('workingDays')}</p>
            ) : null}
          </fieldset>
          <Field label="Hours in a working day" error={errorOf('minutesPerDay')}>
            <Input
              inputMode="decimal"
              disabled={!canEdit}
              value={draft.hours}
              onChange={(e) => set('hours', e.target.value)}
            />
          </Field>
          <Field
            label="Offices"
            hint="Separated by commas; holidays can be set per office"
            error={errorOf('offices')}
          >
            <Input
              disabled={!canEdit}
              value={draft.offices}
              onChange={(e) => set('offices', e.target.value)}
            />
          </Field>
          <Field
            label="Second approval for requests longer than (days)"
            hint="Empty: one approval is enough"
            error={errorOf('secondLevelAfterDays')}
          >
            <Input
              inputMode="numeric"
              disabled={!canEdit}
              value={draft.secondLevelAfterDays}
              onChange={(e) => set('secondLevelAfterDays', e.target.value)}
            />
          </Field>
          <Field
            label="Warn when more of a team would be away than (%)"
            hint="0 turns the warning off"
            error={errorOf('awayWarnPercent')}
          >
            <Input
              inputMode="numeric"
              disabled={!canEdit}
              value={draft.awayWarnPercent}
              onChange={(e) => set('awayWarnPercent', e.target.value)}
            />
          </Field>
          {canEdit ? (
            <div className="sm:col-span-2">
              <Button type="submit" loading={save.isPending}>
                Save work pattern
              </Button>
            </div>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
