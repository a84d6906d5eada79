import { mapsUrl } from '@domain/location';
import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Badge, Button, Card, CardContent, CardHeader, CardTitle, confirm, toast } from '@web/ui';
import { Archive, ExternalLink, MapPin, Pencil, RotateCcw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { ClientBroadcastsCard } from '../broadcasts/client-broadcasts-card';
import { useCan } from '../shell/access';
import { ClientExpiryCard, ClientFilingsCard, ClientRegistrationsCard } from '../statutory/client-statutory';
import { ClientFormDrawer } from './client-form';
import { useClientsRefresh } from './use-clients';

const route = getRouteApi('/_main/clients/$id');

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-2 py-1.5">
      <dt className="text-sm text-muted-fg">{label}</dt>
      <dd className="col-span-2 min-w-0 text-sm wrap-anywhere text-fg">
        {children || <span className="text-muted-fg">—</span>}
      </dd>
    </div>
  );
}

/** /clients/{id}: details, address and location, tax identifiers, tags and notes. */
export function ClientProfile() {
  const { id } = route.useParams();
  const client = useQuery(trpc.clients.get.queryOptions({ clientId: id }));
  const canEdit = useCan('clients.edit');
  const canArchive = useCan('clients.delete');
  const [editing, setEditing] = useState(false);
  const refresh = useClientsRefresh();
  const archive = useMutation(
    trpc.clients.archive.mutationOptions({
      onSuccess: async () => {
        toast.success('Client archived');
        await refresh();
      },
    }),
  );
  const restore = useMutation(
    trpc.clients.restore.mutationOptions({
      onSuccess: async () => {
        toast.success('Client restored');
        await refresh();
      },
    }),
  );
  const c = client.data;
  if (!c) return null;
  const address = [
    c.addressLine1,
    c.addressLine2,
    [c.city, c.region, c.postalCode].filter(Boolean).join(', '),
    c.country,
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap justify-end gap-2">
        {canEdit ? (
          <Button variant="outline" onClick={() => setEditing(true)}>
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : null}
        {canArchive && !c.archivedAt ? (
          <Button
            variant="outline"
            loading={archive.isPending}
            onClick={async () => {
              if (
                await confirm({
                  title: `Archive ${c.name}?`,
                  message:
                    'The client is hidden from lists; its history stays. You can restore it at any time.',
                  confirmLabel: 'Archive',
                  danger: true,
                })
              ) {
                archive.mutate({ clientId: c.id });
              }
            }}
          >
            <Archive aria-hidden />
            Archive
          </Button>
        ) : null}
        {canArchive && c.archivedAt ? (
          <Button
            variant="outline"
            loading={restore.isPending}
            onClick={() => restore.mutate({ clientId: c.id })}
          >
            <RotateCcw aria-hidden />
            Restore
          </Button>
        ) : null}
      </div>
      {canEdit ? (
        <ClientFormDrawer
          key={c.updatedAt.toISOString()}
          open={editing}
          onOpenChange={setEditing}
          client={c}
        />
      ) : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Code">{c.code}</Row>
              <Row label="Email">
                {c.email ? (
                  <a className="underline" href={`mailto:${c.email}`}>
                    {c.email}
                  </a>
                ) : null}
              </Row>
              <Row label="Phone">{c.phone}</Row>
              <Row label="Group">{c.group?.name}</Row>
              <Row label="Status">
                {c.status === 'active' ? (
                  <Badge tone="green" dot>
                    Active
                  </Badge>
                ) : (
                  <Badge tone="grey" dot>
                    Inactive
                  </Badge>
                )}
              </Row>
              <Row label="Tags">
                {c.tags.length ? (
                  <span className="flex flex-wrap gap-1">
                    {c.tags.map((t) => (
                      <Badge key={t}>{t}</Badge>
                    ))}
                  </span>
                ) : null}
              </Row>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Address</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {address ? (
              <p className="text-sm whitespace-pre-line">{address}</p>
            ) : (
              <p className="text-sm text-muted-fg">No address yet.</p>
            )}
            {c.location ? (
              <a
                href={mapsUrl(c.location)}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-2 hover:underline"
              >
                <MapPin aria-hidden className="size-4" />
                Open in maps
                <ExternalLink aria-hidden className="size-3.5" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            ) : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Tax identifiers</CardTitle>
          </CardHeader>
          <CardContent>
            {c.taxIds.length ? (
              <dl>
                {c.taxIds.map((t) => (
                  <Row key={`${t.kind}:${t.value}`} label={t.kind}>
                    <span className="font-mono">{t.value}</span>
                  </Row>
                ))}
              </dl>
            ) : (
              <p className="text-sm text-muted-fg">None recorded.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Notes</CardTitle>
          </CardHeader>
          <CardContent>
            {c.notes ? (
              <p className="text-sm whitespace-pre-line">{c.notes}</p>
            ) : (
              <p className="text-sm text-muted-fg">No notes.</p>
            )}
          </CardContent>
        </Card>
        <ClientRegistrationsCard clientId={c.id} />
        <ClientExpiryCard clientId={c.id} />
        <ClientFilingsCard clientId={c.id} />
        <ClientBroadcastsCard clientId={c.id} />
      </div>
    </div>
  );
}
