import { relativeDate } from '@domain/dates';
import { isValidLink } from '@domain/links';
import { VAULT_CLIPBOARD_CLEAR_MS } from '@domain/vault';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import {
  Badge,
  Button,
  CellText,
  confirm,
  type DataTableColumn,
  EmptyState,
  IconButton,
  ListScreen,
  PageHeader,
  Tooltip,
  toast,
  useFormat,
  useListUrl,
} from '@web/ui';
import { Copy, Eye, EyeOff, KeyRound, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { NoAccess, useCan } from '../shell/access';
import { copySecret } from './clipboard';
import { passwordsListInput } from './passwords-search';
import { type TVaultRow, useVaultRefresh } from './use-vault';
import { VaultEntryDialog } from './vault-entry-dialog';

const route = getRouteApi('/_main/vault/passwords');

export function PasswordsPage() {
  const canView = useCan('vault.view');
  const canCreate = useCan('vault.create');
  const [creating, setCreating] = useState(false);
  if (!canView)
    return (
      <NoAccess message="Your role does not include the password vault. Ask the firm owner if you need it." />
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Passwords' }]}
        title="Passwords"
        description="Logins to the firm’s and its clients’ portals, encrypted; every reveal and copy is logged."
        actions={
          canCreate ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden />
              New password
            </Button>
          ) : null
        }
      />
      <VaultEntryDialog open={creating} onOpenChange={setCreating} />
      <PasswordsTable onCreate={canCreate ? () => setCreating(true) : undefined} />
    </div>
  );
}

/** Reveal and copy: each asks the server (which logs it); the plaintext lives only in this state. */
function useSecrets() {
  const [shown, setShown] = useState<Record<string, string>>({});
  const reveal = useMutation({ ...trpc.vault.reveal.mutationOptions(), gcTime: 0 });
  const toggle = async (row: TVaultRow) => {
    if (shown[row.id] !== undefined) {
      setShown(({ [row.id]: _hidden, ...rest }) => rest);
      return;
    }
    const { password } = await reveal.mutateAsync({ id: row.id, purpose: 'view' });
    setShown((s) => ({ ...s, [row.id]: password }));
  };
  const copy = async (row: TVaultRow) => {
    const { password } = await reveal.mutateAsync({ id: row.id, purpose: 'copy' });
    try {
      await copySecret(password);
      toast.success(
        `Password of “${row.title}” copied. The clipboard clears in ${VAULT_CLIPBOARD_CLEAR_MS / 1000} seconds.`,
      );
    } catch {
      toast.error('The browser did not allow copying: reveal the password and copy it by hand.');
    }
  };
  // Failures already toast through the tRPC error link.
  return {
    shown,
    busy: reveal.isPending,
    toggle: (row: TVaultRow) => toggle(row).catch(() => {}),
    copy: (row: TVaultRow) => copy(row).catch(() => {}),
  };
}

function PasswordsTable({ onCreate }: { onCreate?: () => void }) {
  const url = useListUrl(route.useSearch());
  const { search } = url;
  const canReveal = useCan('vault.reveal');
  const canEdit = useCan('vault.edit');
  const canDelete = useCan('vault.delete');
  const query = passwordsListInput(search);
  const list = useQuery({ ...trpc.vault.list.queryOptions(query), placeholderData: keepPreviousData });
  const facets = useQuery(trpc.vault.facets.queryOptions());
  const refresh = useVaultRefresh();
  const secrets = useSecrets();
  const format = useFormat();
  const [open, setOpen] = useState<string | null>(null);
  const remove = useMutation(
    trpc.vault.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Password entry deleted');
        await refresh();
      },
    }),
  );

  const columns: DataTableColumn<TVaultRow>[] = [
    {
      id: 'title',
      header: 'Title',
      sortable: true,
      minWidth: 10,
      cell: (r) => <CellText className="font-medium text-fg">{r.title}</CellText>,
      // The address opens the site itself, so it sits beside the row's button, not in it.
      after: (r) =>
        r.url ? (
          isValidLink(r.url) ? (
            <a
              href={r.url}
              target="_blank"
              rel="noopener noreferrer"
              className="min-w-0 basis-full text-xs text-primary hover:underline"
            >
              <CellText>{r.url}</CellText>
            </a>
          ) : (
            <CellText className="basis-full text-xs text-muted-fg">{r.url}</CellText>
          )
        ) : null,
    },
    {
      id: 'client',
      header: 'Client',
      truncate: true,
      cell: (r) => r.client?.name ?? <span className="text-muted-fg">Firm-wide</span>,
    },
    {
      id: 'username',
      header: 'Username',
      truncate: true,
      minWidth: 6,
      cell: (r) => r.username ?? <span className="text-muted-fg">—</span>,
    },
    {
      id: 'password',
      header: 'Password',
      cell: (r) => {
        const value = secrets.shown[r.id];
        return (
          <span className="flex items-center gap-1">
            {value === undefined ? (
              <span className="w-28 font-mono text-xs">
                <span aria-hidden>••••••••</span>
                <span className="sr-only">Hidden</span>
              </span>
            ) : (
              <span className="w-28 font-mono text-xs break-all whitespace-normal">{value}</span>
            )}
            {canReveal ? (
              <>
                <Tooltip content={value === undefined ? 'Reveal' : 'Hide'}>
                  <IconButton
                    size="sm"
                    aria-label={`${value === undefined ? 'Reveal' : 'Hide'} password of ${r.title}`}
                    aria-pressed={value !== undefined}
                    disabled={secrets.busy}
                    onClick={() => void secrets.toggle(r)}
                  >
                    {value === undefined ? <Eye /> : <EyeOff />}
                  </IconButton>
                </Tooltip>
                <Tooltip content="Copy">
                  <IconButton
                    size="sm"
                    aria-label={`Copy password of ${r.title}`}
                    disabled={secrets.busy}
                    onClick={() => void secrets.copy(r)}
                  >
                    <Copy />
                  </IconButton>
                </Tooltip>
              </>
            ) : null}
          </span>
        );
      },
    },
    {
      id: 'tags',
      header: 'Tags',
      className: 'hidden 2xl:table-cell',
      cell: (r) => (
        <span className="flex gap-1">
          {r.tags.slice(0, 3).map((t) => (
            <Badge key={t}>{t}</Badge>
          ))}
          {r.tags.length > 3 ? <span className="text-xs text-muted-fg">+{r.tags.length - 3}</span> : null}
        </span>
      ),
    },
    {
      id: 'passwordChangedAt',
      header: 'Changed',
      sortable: true,
      sortDescFirst: true,
      cell: (r) => (
        <span className="flex flex-col text-xs text-muted-fg" title={format.dateTime(r.passwordChangedAt)}>
          <span>{relativeDate(r.passwordChangedAt)}</span>
          {r.passwordChangedBy ? <span>by {r.passwordChangedBy.name}</span> : null}
        </span>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'w-0 text-right',
      cell: (r) => (
        <span className="flex justify-end gap-1">
          {canEdit ? (
            <IconButton size="sm" aria-label={`Edit ${r.title}`} onClick={() => setOpen(r.id)}>
              <Pencil />
            </IconButton>
          ) : null}
          {canDelete ? (
            <IconButton
              size="sm"
              aria-label={`Delete ${r.title}`}
              className="text-danger"
              onClick={async () => {
                if (
                  await confirm({
                    title: `Delete “${r.title}”?`,
                    message:
                      'The password is destroyed and cannot be recovered. The system log keeps a record.',
                    confirmLabel: 'Delete',
                    danger: true,
                  })
                ) {
                  remove.mutate({ id: r.id });
                }
              }}
            >
              <Trash2 />
            </IconButton>
          ) : null}
        </span>
      ),
    },
  ];

  const clients = facets.data?.clients ?? [];
  const tags = facets.data?.tags ?? [];
  return (
    <>
      <ListScreen
        label="Passwords"
        url={url}
        query={query}
        list={list}
        columns={columns}
        getRowId={(r) => r.id}
        getRowLabel={(r) => r.title}
        onRowClick={(r) => setOpen(r.id)}
        searchBox={{ label: 'Search passwords', placeholder: 'Search title, username, URL…' }}
        filters={[
          {
            key: 'client',
            label: 'Client',
            all: 'All clients and firm',
            className: 'w-52',
            options: [
              { value: 'firm', label: 'Firm-wide only' },
              ...clients.map((c) => ({ value: c.id, label: c.name })),
              // A client from the URL that has no entries (yet) still shows its choice.
              ...(search.client && search.client !== 'firm' && !clients.some((c) => c.id === search.client)
                ? [{ value: search.client, label: 'This client' }]
                : []),
            ],
          },
          {
            key: 'tag',
            label: 'Tag',
            all: 'All tags',
            options: [
              ...tags.map((t) => ({ value: t, label: t })),
              ...(search.tag && !tags.includes(search.tag) ? [{ value: search.tag, label: search.tag }] : []),
            ],
          },
        ]}
        noMatch={{
          title: 'No passwords match',
          message: 'Try another word, or clear the filters.',
          clear: true,
        }}
        empty={
          <EmptyState
            icon={KeyRound}
            title="No passwords yet"
            message="Keep the logins of the firm’s and its clients’ portals here, encrypted."
            action={onCreate ? <Button onClick={onCreate}>New password</Button> : undefined}
          />
        }
      />
      <VaultEntryDialog
        open={open !== null}
        onOpenChange={(next) => (next ? null : setOpen(null))}
        entryId={open ?? undefined}
        readOnly={!canEdit}
      />
    </>
  );
}
