import { FREQUENCY_LABELS } from '@domain/services';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Card,
  CardContent,
  confirm,
  Dialog,
  DialogClose,
  DialogContent,
  Skeleton,
  toast,
  useFormat,
} from '@web/ui';
import { BookCheck } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';

// A new release of the statutory catalogue (issue 39): the firm stays on the version it accepted
// until someone reviews what the release changes for it here and accepts it.

const KIND_LABEL = { added: 'New filing', changed: 'Changed', retired: 'Retired' } as const;
const KIND_TONE = { added: 'green', changed: 'yellow', retired: 'grey' } as const;

/** The notice on /admin/statutory when a newer catalogue awaits review. */
export function CatalogueUpdateNotice({ current, pending }: { current: string; pending: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <CardContent className="flex flex-wrap items-center gap-3 pt-4">
        <BookCheck aria-hidden className="size-5 text-primary" />
        <p className="flex-1 text-sm">
          <span className="font-medium">Version {pending} of the statutory catalogue is available.</span> Your
          firm uses version {current} until you review what the new one changes for your clients and projects.
        </p>
        <Button variant="outline" onClick={() => setOpen(true)}>
          Review the changes
        </Button>
      </CardContent>
      {open ? <CatalogueUpdateDialog onClose={() => setOpen(false)} /> : null}
    </Card>
  );
}

function CatalogueUpdateDialog({ onClose }: { onClose: () => void }) {
  const format = useFormat();
  const canAccept = useCan('services.edit');
  const queryClient = useQueryClient();
  const preview = useQuery(trpc.statutory.catalogueUpdate.queryOptions());
  const p = preview.data;
  const n = (value: number, one: string) => `${format.number(value)} ${one}${value === 1 ? '' : 's'}`;
  const accept = useMutation(
    trpc.statutory.acceptCatalogueUpdate.mutationOptions({
      onSuccess: async (r) => {
        toast.success(
          `Your firm now uses version ${r.version}: ${n(r.projects, 'project')} moved, ${n(r.servicesUpdated, 'service')} updated`,
        );
        await queryClient.invalidateQueries({ queryKey: trpc.statutory.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.projects.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.services.pathKey() });
        onClose();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent
        size="xl"
        title={p ? `Statutory catalogue ${p.latest}` : 'Statutory catalogue'}
        description={p ? `What version ${p.latest} changes for your firm (you use ${p.current}).` : undefined}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
            {canAccept && p && p.latest !== p.current ? (
              <Button
                loading={accept.isPending}
                onClick={async () => {
                  if (
                    await confirm({
                      title: `Accept version ${p.latest}?`,
                      message: `${n(p.totals.projects, 'project')} move to the new due dates with their open tasks, reminders and requests; linked services take the new rules. The system log records it.`,
                      confirmLabel: 'Accept',
                    })
                  )
                    accept.mutate({ version: p.latest });
                }}
              >
                <BookCheck aria-hidden />
                Accept version {p.latest}
              </Button>
            ) : null}
          </>
        }
      >
        {preview.isError ? (
          <p className="text-danger">{preview.error.message}</p>
        ) : !p ? (
          <Skeleton className="h-24 w-full" />
        ) : p.latest === p.current ? (
          <p className="text-muted-fg">Your firm uses the newest catalogue.</p>
        ) : (
          <div className="flex flex-col gap-4">
            {p.releases.map((r) => (
              <p key={r.version} className="text-sm">
                <span className="font-medium">{r.version}:</span> {r.notes}
              </p>
            ))}
            <table className="w-full text-sm">
              <caption className="sr-only">Filings the new version changes</caption>
              <thead className="text-left text-xs text-muted-fg">
                <tr>
                  <th scope="col" className="py-1 font-normal">
                    Filing
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Change
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Clients who must file
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Your services
                  </th>
                </tr>
              </thead>
              <tbody>
                {p.changes.map((c) => (
                  <tr key={c.filing.code} className="border-t border-border align-top">
                    <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                      <span className="font-medium">{c.filing.name}</span>
                      <span className="block text-xs text-muted-fg">{c.filing.description}</span>
                    </th>
                    <td className="py-1.5 pr-2">
                      <Badge tone={KIND_TONE[c.kind]}>{KIND_LABEL[c.kind]}</Badge>
                      <ul className="mt-1 text-xs text-muted-fg">
                        {c.frequency?.changed ? (
                          <li>
                            {FREQUENCY_LABELS[c.frequency.from]} → {FREQUENCY_LABELS[c.frequency.to]}
                          </li>
                        ) : null}
                        {c.dueDates.slice(0, 4).map((d) => (
                          <li key={d.periodKey}>
                            {d.periodLabel}: {format.date(d.from)} → {format.date(d.to)}
                          </li>
                        ))}
                        {c.dueDates.length > 4 ? (
                          <li>and {n(c.dueDates.length - 4, 'more period')}</li>
                        ) : null}
                        {c.kind === 'changed' && c.appliesTo ? <li>Who must file changes</li> : null}
                        {c.wording ? <li>Name or description reworded</li> : null}
                      </ul>
                    </td>
                    <td className="py-1.5 pr-2 whitespace-nowrap">
                      {c.clients.before === c.clients.after
                        ? format.number(c.clients.after)
                        : `${format.number(c.clients.before)} → ${format.number(c.clients.after)}`}
                    </td>
                    <td className="py-1.5">
                      {c.services.length
                        ? c.services.map((s) => s.name).join(', ')
                        : c.kind === 'added'
                          ? 'None linked yet'
                          : '—'}
                      {c.kind === 'retired' && c.services.length ? (
                        <span className="block text-xs text-muted-fg">Kept with its rule, unlinked</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {p.totals.projects === 0 ? (
              <p className="text-sm text-muted-fg">No open project’s due date moves.</p>
            ) : (
              <>
                <p className="text-sm" aria-live="polite">
                  {`${n(p.totals.projects, 'open project')} ${p.totals.projects === 1 ? 'moves' : 'move'} to the new due date.`}
                </p>
                <table className="w-full text-sm">
                  <caption className="sr-only">Projects that move</caption>
                  <thead className="text-left text-xs text-muted-fg">
                    <tr>
                      <th scope="col" className="py-1 font-normal">
                        Client
                      </th>
                      <th scope="col" className="py-1 font-normal">
                        Project
                      </th>
                      <th scope="col" className="py-1 font-normal">
                        Due
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.projects.map((r) => (
                      <tr key={r.projectId} className="border-t border-border">
                        <td className="py-1.5 pr-2">{r.clientName}</td>
                        <td className="py-1.5 pr-2">
                          <Link
                            to="/projects/$id"
                            params={{ id: r.projectId }}
                            className="text-primary underline-offset-2 hover:underline"
                          >
                            {r.projectName}
                          </Link>
                        </td>
                        <td className="py-1.5 whitespace-nowrap">
                          <span className="text-muted-fg line-through">{format.date(r.dueDate)}</span>{' '}
                          {format.date(r.newDueDate)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
            {p.changes.some((c) => c.kind === 'added') ? (
              <p className="text-sm text-muted-fg">
                A new filing shows in the{' '}
                <Link to="/reports/statutory/gaps" className="text-primary underline underline-offset-2">
                  statutory gaps
                </Link>{' '}
                once accepted: link a service to it to engage the clients who must file it.
              </p>
            ) : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
