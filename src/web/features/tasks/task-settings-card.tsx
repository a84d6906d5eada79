import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Skeleton, Switch, toast } from '@web/ui';
import { trpc } from '../../lib/trpc';

/** The firm's task rule on /admin/settings/org: a switch that takes effect at once. */
export function TaskSettingsCard({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.tasks.settings.queryOptions());
  const save = useMutation(
    trpc.tasks.updateSettings.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(
          saved.requireChecklistToComplete
            ? 'Tasks now need their checklist done to be completed'
            : 'Tasks can be completed with checklist items open',
        );
        await queryClient.invalidateQueries({ queryKey: trpc.tasks.pathKey() });
      },
    }),
  );
  return (
    <Card id="work" aria-labelledby="work-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="work-title">Work</CardTitle>
          <CardDescription>Rules for tasks across the firm.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <Switch
            label="A task can be completed only when its checklist is done"
            checked={settings.data.requireChecklistToComplete}
            disabled={!canEdit || save.isPending}
            onCheckedChange={(on) => save.mutate({ requireChecklistToComplete: on })}
          />
        ) : (
          <Skeleton className="h-5 w-80" />
        )}
      </CardContent>
    </Card>
  );
}
