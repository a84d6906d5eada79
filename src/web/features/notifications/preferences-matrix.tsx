import { NOTIFICATION_KIND_LABELS, type TNotificationPreference } from '@domain/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Skeleton, Switch } from '@web/ui';
import { trpc } from '../../lib/trpc';

/** Kind × channel switches; each switch saves at once. */
export function PreferencesMatrix() {
  const queryClient = useQueryClient();
  const prefs = useQuery(trpc.notifications.preferences.get.queryOptions());
  const set = useMutation(
    trpc.notifications.preferences.set.mutationOptions({
      onSuccess: (next) => queryClient.setQueryData(trpc.notifications.preferences.get.queryKey(), next),
    }),
  );
  if (!prefs.data) return <Skeleton className="m-4 h-40" />;

  const change = (pref: TNotificationPreference, patch: Partial<TNotificationPreference>) =>
    set.mutate({ ...pref, ...patch });

  return (
    <div className="overflow-x-auto px-4 pb-4">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-border text-left text-xs text-muted-fg">
            <th scope="col" className="py-2 font-medium">
              Notification
            </th>
            <th scope="col" className="w-24 py-2 text-center font-medium">
              In the app
            </th>
            <th scope="col" className="w-24 py-2 text-center font-medium">
              Email
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {prefs.data.map((pref) => {
            const { label, description } = NOTIFICATION_KIND_LABELS[pref.kind];
            return (
              <tr key={pref.kind}>
                <th scope="row" className="py-2.5 text-left font-normal">
                  <span className="block font-medium text-fg">{label}</span>
                  <span className="block text-xs text-muted-fg">{description}</span>
                </th>
                <td className="text-center">
                  <Switch
                    aria-label={`${label}: in the app`}
                    checked={pref.inApp}
                    disabled={set.isPending}
                    onCheckedChange={(inApp) => change(pref, { inApp })}
                  />
                </td>
                <td className="text-center">
                  <Switch
                    aria-label={`${label}: email`}
                    checked={pref.email}
                    disabled={set.isPending}
                    onCheckedChange={(email) => change(pref, { email })}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
