import { DEFAULT_FLAG_AFTER, MAX_FLAG_AFTER, ZChaseSettings } from '@domain/requests/chase';
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
  Skeleton,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { ChaseFields, parseChaseDraft, type TChaseDraft, toChaseDraft } from './chase-fields';

/**
 * Firm settings' "Client requests": the reminder schedule each new request starts with, and after
 * how many unanswered reminders a request needs attention.
 */
export function ChaseSettingsCard({ canEdit }: { canEdit: boolean }) {
  const canView = useCan('requests.view');
  const settings = useQuery({ ...trpc.requests.chaseSettings.queryOptions(), enabled: canView });
  if (!canView) return null;
  return (
    <Card id="requests" aria-labelledby="requests-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="requests-title">Client requests</CardTitle>
          <CardDescription>
            Reminders mailed to the client while a request waits on them, stopping when they submit. Each new
            request starts with this schedule; it can be changed when sending and on the request.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <ChaseSettingsForm
            key={settings.dataUpdatedAt}
            canEdit={canEdit}
            initial={toChaseDraft(settings.data.schedule)}
            initialFlag={settings.data.flagAfter}
          />
        ) : (
          <Skeleton className="h-24" />
        )}
      </CardContent>
    </Card>
  );
}

function ChaseSettingsForm({
  canEdit,
  initial,
  initialFlag,
}: {
  canEdit: boolean;
  initial: TChaseDraft;
  initialFlag: number;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [flag, setFlag] = useState(String(initialFlag));
  const [tried, setTried] = useState(false);
  const { schedule, errors } = parseChaseDraft(draft);
  const flagParsed = ZChaseSettings.shape.flagAfter.safeParse(flag.trim() ? Number(flag) : Number.NaN);
  const save = useMutation(
    trpc.requests.updateChaseSettings.mutationOptions({
      onSuccess: async ({ changed }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.requests.chaseSettings.queryKey() });
        toast.success(changed ? 'Request reminders saved' : 'Nothing to save: no changes');
      },
    }),
  );
  const shown = tried ? errors : new Map<string, string>();
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!schedule || !flagParsed.success) {
          toast.error('Some fields need attention');
          return;
        }
        save.mutate({ schedule, flagAfter: flagParsed.data });
      }}
    >
      <fieldset disabled={!canEdit} className="contents">
        <ChaseFields value={draft} onChange={setDraft} errors={shown} idPrefix="firm-chase" />
        <Field
          label="Needs attention after"
          hint={`Unanswered reminders (1–${MAX_FLAG_AFTER}, ${DEFAULT_FLAG_AFTER} by default); the sender is told in the app`}
          error={tried && !flagParsed.success ? flagParsed.error.issues[0]?.message : undefined}
          className="sm:max-w-xs"
        >
          <Input
            type="number"
            min={1}
            max={MAX_FLAG_AFTER}
            inputMode="numeric"
            value={flag}
            onChange={(e) => setFlag(e.target.value)}
          />
        </Field>
        {canEdit ? (
          <div className="flex justify-end">
            <Button type="submit" loading={save.isPending}>
              Save reminders
            </Button>
          </div>
        ) : null}
      </fieldset>
    </form>
  );
}
