import { RESPONSIBILITIES } from '@domain/clients';
import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Avatar,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  confirm,
  EmptyState,
  Field,
  IconButton,
  Select,
  toast,
} from '@web/ui';
import { Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { useClientsRefresh } from './use-clients';

const route = getRouteApi('/_main/clients/$id');
const NONE = 'none';
const responsibilityOptions = [
  { value: NONE, label: 'No responsibility set' },
  ...RESPONSIBILITIES.map((r) => ({ value: r, label: r })),
];

/** /clients/{id}/team: the members responsible for the client, and for what. */
export function ClientTeam() {
  const { id } = route.useParams();
  const canEdit = useCan('clients.edit');
  const team = useQuery(trpc.clients.team.list.queryOptions({ clientId: id }));
  const options = useQuery({ ...trpc.clients.options.queryOptions(), enabled: canEdit });
  const refresh = useClientsRefresh();
  const [memberId, setMemberId] = useState('');
  const [responsibility, setResponsibility] = useState<string>(NONE);
  const add = useMutation(
    trpc.clients.team.add.mutationOptions({
      onSuccess: async () => {
        toast.success('Added to the team');
        setMemberId('');
        setResponsibility(NONE);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.clients.team.remove.mutationOptions({
      onSuccess: async () => {
        toast.success('Removed from the team');
        await refresh();
      },
    }),
  );
  const change = useMutation(
    trpc.clients.team.updateResponsibility.mutationOptions({
      onSuccess: async () => {
        toast.success('Responsibility saved');
        await refresh();
      },
    }),
  );
  const onTeam = new Set((team.data ?? []).map((m) => m.memberId));
  const candidates = (options.data?.members ?? []).filter((m) => !onTeam.has(m.id));
  return (
    <div className="flex flex-col gap-4">
      {canEdit ? (
        <Card>
          <CardHeader>
            <CardTitle>Add a team member</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              className="flex flex-wrap items-end gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                if (!memberId) {
                  toast.error('Choose a member to add');
                  return;
                }
                add.mutate({
                  clientId: id,
                  memberId,
                  responsibility: responsibility === NONE ? null : responsibility,
                });
              }}
            >
              <Field label="Member" className="w-64">
                <Select
                  // A fresh control after each add, so the placeholder shows again.
                  key={team.data?.length ?? 0}
                  value={memberId || undefined}
                  onValueChange={setMemberId}
                  placeholder={options.isPending ? 'Loading members…' : 'Choose a member'}
                  options={candidates.map((m) => ({ value: m.id, label: m.name }))}
                />
              </Field>
              <Field label="Responsibility" className="w-56">
                <Select
                  value={responsibility}
                  onValueChange={setResponsibility}
                  options={responsibilityOptions}
                />
              </Field>
              <Button type="submit" loading={add.isPending}>
                Add to team
              </Button>
            </form>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Team</CardTitle>
        </CardHeader>
        <CardContent>
          {team.data && team.data.length === 0 ? (
            <EmptyState
              icon={Users}
              title="No one is on this client’s team"
              message="Add the members who work for this client."
            />
          ) : null}
          <ul className="divide-y divide-border" aria-label="Team members">
            {(team.data ?? []).map((m) => (
              <li key={m.memberId} className="flex flex-wrap items-center gap-3 py-2.5">
                <Avatar name={m.name} src={m.picture} size="sm" />
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-fg">{m.name}</p>
                  <p className="text-xs text-muted-fg">{m.email}</p>
                </div>
                {canEdit ? (
                  <>
                    <Select
                      aria-label={`Responsibility of ${m.name}`}
                      className="w-52"
                      size="sm"
                      value={m.responsibility ?? NONE}
                      onValueChange={(v) =>
                        change.mutate({
                          clientId: id,
                          memberId: m.memberId,
                          responsibility: v === NONE ? null : v,
                        })
                      }
                      options={
                        m.responsibility &&
                        !(RESPONSIBILITIES as readonly string[]).includes(m.responsibility)
                          ? [...responsibilityOptions, { value: m.responsibility, label: m.responsibility }]
                          : responsibilityOptions
                      }
                    />
                    <IconButton
                      aria-label={`Remove ${m.name} from the team`}
                      onClick={async () => {
                        if (
                          await confirm({
                            title: `Remove ${m.name}?`,
                            message: 'They will no longer be on this client’s team.',
                            confirmLabel: 'Remove',
                            danger: true,
                          })
                        ) {
                          remove.mutate({ clientId: id, memberId: m.memberId });
                        }
                      }}
                    >
                      <Trash2 />
                    </IconButton>
                  </>
                ) : (
                  <span className="text-sm text-muted-fg">{m.responsibility ?? '—'}</span>
                )}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
