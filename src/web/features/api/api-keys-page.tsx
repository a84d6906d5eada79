import { TZDate } from '@date-fns/tz';
import { type TApiKeyState, ZApiKeyCreate } from '@domain/api-keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  confirm,
  DataTable,
  type DataTableColumn,
  DatePicker,
  EmptyState,
  Field,
  Input,
  PageHeader,
  Select,
  toast,
  useFormat,
} from '@web/ui';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { AccountingExportCard } from './accounting-export-card';

type TKey = inferRouterOutputs<AppRouter>['apiKeys']['list'][number];

const STATE: Record<TApiKeyState, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'green' },
  expired: { label: 'Expired', tone: 'yellow' },
  revoked: { label: 'Revoked', tone: 'grey' },
};

/** /admin/settings/api: the firm's keys to the public API (owner and admin: settings.edit). */
export function ApiKeysPage() {
  if (!useCan('settings.edit'))
    return <NoAccess message="Only the firm's owner and admins manage API keys." />;
  return <ApiKeys />;
}

function ApiKeys() {
  const canExport = useCan('billing.view');
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);
  return (
    <div className="mx-auto max-w-6xl p-6">
      <PageHeader
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'API keys' }]}
        title="API keys"
        description={
          <>
            Keys let the firm&apos;s other tools use its data through the API. Each key has a role and reaches
            only what that role reaches; every call is in the system log under the key&apos;s name.{' '}
            <a className="text-primary underline" href="/api/v1/docs" target="_blank" rel="noreferrer">
              API reference
            </a>
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <NewKeyCard onMade={setMade} />
        {made ? <SecretCard made={made} onDone={() => setMade(null)} /> : null}
        <KeysCard />
        {canExport ? <AccountingExportCard /> : null}
      </div>
    </div>
  );
}

type TErrors = Partial<Record<'name' | 'roleId' | 'expiresAt', string>>;

function NewKeyCard({ onMade }: { onMade: (made: { name: string; secret: string }) => void }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const roles = useQuery(trpc.roles.list.queryOptions({ page: 1, pageSize: 200 }));
  const [name, setName] = useState('');
  const [roleId, setRoleId] = useState('');
  const [expiresOn, setExpiresOn] = useState<string | null>(null);
  const [errors, setErrors] = useState<TErrors>({});
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (key) => {
        onMade({ name: key.name, secret: key.secret });
        setName('');
        setExpiresOn(null);
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    // The key works to the end of the chosen day on the firm's clock.
    const expiresAt = expiresOn
      ? new TZDate(
          Number(expiresOn.slice(0, 4)),
          Number(expiresOn.slice(5, 7)) - 1,
          Number(expiresOn.slice(8, 10)),
          23,
          59,
          59,
          format.timeZone,
        )
      : null;
    const parsed = ZApiKeyCreate.safeParse({
      name,
      roleId,
      expiresAt: expiresAt ? new Date(expiresAt.getTime()) : null,
    });
    if (!parsed.success) {
      const next: TErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof TErrors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  }
  return (
    <Card>
      <CardHeader>
        <div>
          <CardTitle>New key</CardTitle>
          <CardDescription>
            The key is shown once, when it is made. Store it where the tool keeps secrets.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={submit}
          className="grid gap-4 md:grid-cols-[2fr_1.5fr_1fr_auto] md:items-end"
        >
          <Field label="Name" required error={errors.name}>
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Zapier"
              maxLength={80}
            />
          </Field>
          <Field label="Role" required error={errors.roleId}>
            <Select
              value={roleId || undefined}
              onValueChange={setRoleId}
              placeholder={roles.isPending ? 'Loading roles…' : 'Choose a role'}
              options={(roles.data?.rows ?? []).map((role) => ({ value: role.id, label: role.name }))}
            />
          </Field>
          <Field label="Expires on" hint="Leave empty for no expiry" error={errors.expiresAt}>
            <DatePicker value={expiresOn} onChange={setExpiresOn} placeholder="Never" />
          </Field>
          <Button type="submit" disabled={create.isPending}>
            Make key
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function SecretCard({ made, onDone }: { made: { name: string; secret: string }; onDone: () => void }) {
  return (
    <Card className="border-primary/40" role="status">
      <CardHeader>
        <div>
          <CardTitle>Copy the key {made.name} now</CardTitle>
          <CardDescription>It is not shown again: only a fingerprint of it is kept.</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 md:flex-row md:items-center">
        <Input
          readOnly
          aria-label="The new key"
          value={made.secret}
          className="font-mono"
          onFocus={(e) => e.currentTarget.select()}
        />
        <div className="flex gap-2">
          <Button
            type="button"
            variant="secondary"
            onClick={() =>
              navigator.clipboard
                .writeText(made.secret)
                .then(() => toast.success('Key copied'))
                .catch(() => toast.error('Could not copy: select the key and copy it'))
            }
          >
            Copy
          </Button>
          <Button type="button" variant="ghost" onClick={onDone}>
            Done
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function KeysCard() {
  const format = useFormat();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        toast.success('Key revoked');
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  async function askRevoke(key: TKey) {
    const ok = await confirm({
      title: `Revoke the key ${key.name}?`,
      message: 'Tools using it stop working at once. This cannot be undone.',
      confirmLabel: 'Revoke',
      danger: true,
    });
    if (ok) revoke.mutate({ apiKeyId: key.id });
  }
  const columns: DataTableColumn<TKey>[] = [
    {
      id: 'name',
      header: 'Name',
      truncate: true,
      minWidth: 8,
      cell: (key) => <span className="font-medium">{key.name}</span>,
    },
    { id: 'key', header: 'Key', cell: (key) => <span className="font-mono text-xs">{key.prefix}…</span> },
    { id: 'role', header: 'Role', cell: (key) => key.roleName },
    {
      id: 'status',
      header: 'Status',
      cell: (key) => <Badge tone={STATE[key.state].tone}>{STATE[key.state].label}</Badge>,
    },
    {
      id: 'made',
      header: 'Made',
      className: 'hidden md:table-cell',
      cell: (key) => `${format.date(key.createdAt)} by ${key.createdByName}`,
    },
    {
      id: 'expires',
      header: 'Expires',
      cell: (key) => (key.expiresAt ? format.date(key.expiresAt) : 'Never'),
    },
    {
      id: 'lastUsed',
      header: 'Last used',
      cell: (key) => (key.lastUsedAt ? format.dateTime(key.lastUsedAt) : 'Never'),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      // relative: contains the sr-only header, which would otherwise widen the page.
      className: 'relative text-right',
      cell: (key) =>
        key.state === 'revoked' ? null : (
          <Button type="button" size="sm" variant="secondary" onClick={() => askRevoke(key)}>
            Revoke<span className="sr-only"> {key.name}</span>
          </Button>
        ),
    },
  ];
  const rows = keys.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Keys</CardTitle>
      </CardHeader>
      <CardContent>
        {keys.isError ? (
          <p role="alert">The keys could not be loaded: {keys.error.message}</p>
        ) : (
          // One page: a firm has a few keys (the server lists at most 500).
          <DataTable
            label="API keys"
            columns={columns}
            rows={rows}
            getRowId={(key) => key.id}
            total={rows.length}
            page={1}
            pageSize={Math.max(rows.length, 1)}
            onPageChange={() => {}}
            loading={keys.isPending}
            empty={
              <EmptyState
                icon={KeyRound}
                title="No API keys yet"
                message="Make one above to connect another tool."
              />
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
