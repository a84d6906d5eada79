import type { TDocumentSort } from '@domain/documents';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, linkOptions, useNavigate } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Checkbox,
  cn,
  DataTable,
  type DataTableColumn,
  EmptyState,
  Input,
  Spinner,
  toast,
  useFormat,
} from '@web/ui';
import { FileText, Folder, FolderDown, FolderPlus, Search, Trash2, Upload } from 'lucide-react';
import { type DragEvent, useCallback, useEffect, useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { saveFile } from './file-transfer';
import { ItemActions, type TItem } from './item-actions';
import { NameDialog } from './name-dialog';
import { confirmShare, FolderPortalNote, PortalBadge, sharedMessage, theFolders } from './portal-state';
import { TrashView } from './trash-view';
import { UploadList } from './upload-list';
import { useTreeRoot } from './use-tree-root';
import { useUploads } from './use-uploads';

const PAGE_SIZE = 50;

/** Where a folder of this tree is shown (`folderId` null: the tree's top), as typed link options. */
export function folderLink(clientId: string | null, folderId: string | null) {
  if (clientId) {
    return folderId
      ? linkOptions({ to: '/clients/$id/documents/$folderId', params: { id: clientId, folderId } })
      : linkOptions({ to: '/clients/$id/documents', params: { id: clientId } });
  }
  return folderId
    ? linkOptions({ to: '/vault/documents/$folderId', params: { folderId } })
    : linkOptions({ to: '/vault/documents' });
}

/**
 * One folder of a tree: path, sub-folders and a page of files, with upload by picker or by
 * dropping files anywhere on it, and the trash of the tree.
 */
export function DocumentsBrowser({ clientId, folderId }: { clientId: string | null; folderId?: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const canCreate = useCan('documents.create');
  const canEdit = useCan('documents.edit');
  const format = useFormat();
  // The top folder is made on first opening (with the firm's default folders for a client).
  const root = useTreeRoot(clientId, { enabled: !folderId });
  const currentId = folderId ?? root?.id;
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<TDocumentSort>('name');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const [search, setSearch] = useState('');
  const [showTrash, setShowTrash] = useState(false);
  const [newFolder, setNewFolder] = useState(false);
  const [dragging, setDragging] = useState(false);
  /** The uploader's portal choice in this folder; null until they make one (the folder decides). */
  const [shareChoice, setShareChoice] = useState<boolean | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  // Another folder starts on its first page, with its own upload default.
  useEffect(() => {
    if (currentId) {
      setPage(1);
      setShareChoice(null);
    }
  }, [currentId]);

  const contents = useQuery({
    ...trpc.documents.contents.queryOptions({
      folderId: currentId ?? '',
      page,
      pageSize: PAGE_SIZE,
      sort,
      direction,
    }),
    enabled: Boolean(currentId),
    placeholderData: (previous) => previous,
  });
  const term = search.trim();
  const found = useQuery({
    ...trpc.documents.search.queryOptions({ clientId, search: term, limit: 50 }),
    enabled: term.length > 0,
  });
  const limits = useQuery(trpc.documents.limits.queryOptions());
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.documents.pathKey() });
  }, [queryClient]);
  const uploads = useUploads({ maxBytes: limits.data?.maxBytes, onUploaded: refresh });
  const shareHere = useMutation(
    trpc.documents.setFolderVisibility.mutationOptions({
      onSuccess: (folder) => {
        toast.success(sharedMessage(folder.name, folder.alsoShared));
        refresh();
      },
    }),
  );
  const createFolder = useMutation(
    trpc.documents.createFolder.mutationOptions({
      onSuccess: (folder) => {
        toast.success(`Created the folder ${folder.name}`);
        setNewFolder(false);
        refresh();
      },
    }),
  );

  // A folder that does not exist, was deleted, or belongs to another tree than the URL's (another
  // client's, or a client's under the vault): the same "not found" panel as any other record.
  const wrongTree =
    folderId !== undefined &&
    contents.data !== undefined &&
    !contents.isPlaceholderData &&
    contents.data.folder.clientId !== clientId;
  if (wrongTree || (contents.error?.data?.code === 'NOT_FOUND' && !contents.data)) {
    return (
      <RecordNotFound
        thing="folder"
        back={
          clientId
            ? { to: '/clients/$id/documents', params: { id: clientId }, label: 'Back to documents' }
            : { to: '/vault/documents', label: 'Back to documents' }
        }
      />
    );
  }
  // Anything else, once its retries are spent, is the error screen rather than a spinner forever.
  if (contents.error && !contents.data) throw contents.error;
  if (!currentId || !contents.data) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  const data = contents.data;
  const { portal } = data.folder;
  // Who may choose what the client sees picks it per upload: by default shared where the client
  // sees what is shared (the folder is shared and reached), internal anywhere else.
  const chooseShare = clientId !== null && canEdit;
  const share = shareChoice ?? (data.folder.visibleToPortal && portal.visible);
  const addFiles = (files: FileList | File[] | null) => {
    const list = Array.from(files ?? []);
    if (!list.length || !canCreate) return;
    uploads.add(list, chooseShare ? { folderId: currentId, share } : currentId);
  };
  const shareThisFolder = async () => {
    const above = portal.hiddenBy.filter((f) => f.id !== currentId);
    if (await confirmShare(data.folder.name, above)) {
      shareHere.mutate({ folderId: currentId, visibleToPortal: true });
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };
  const rows: TItem[] = [
    ...(page === 1 && !term
      ? data.folders.map((f) => ({
          kind: 'folder' as const,
          id: f.id,
          name: f.name,
          size: null,
          updatedAt: f.updatedAt,
          visibleToPortal: f.visibleToPortal,
          portal: f.portal,
          hiddenBy: portal.hiddenBy,
          contentType: null,
          version: null,
          folderId: currentId,
          folderName: null,
        }))
      : []),
    ...(term
      ? (found.data ?? []).map((d) => ({ kind: 'file' as const, ...d }))
      : data.documents.rows.map((d) => ({
          kind: 'file' as const,
          ...d,
          hiddenBy: portal.hiddenBy,
          folderId: currentId,
          folderName: null,
        }))),
  ];
  const columns: DataTableColumn<TItem>[] = [
    {
      id: 'name',
      header: 'Name',
      sortable: !term,
      className: 'w-full whitespace-normal',
      cell: (row) =>
        row.kind === 'folder' ? (
          <span className="inline-flex items-center gap-2 font-medium">
            <Folder aria-hidden="true" className="size-4 text-amber-500" /> {row.name}
          </span>
        ) : (
          <span className="inline-flex min-w-0 items-center gap-2">
            <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-fg" />
            <span className="break-all">{row.name}</span>
            {row.version && row.version > 1 ? <Badge tone="grey">v{row.version}</Badge> : null}
            {row.folderName ? <span className="text-xs text-muted-fg">in {row.folderName}</span> : null}
          </span>
        ),
    },
    {
      id: 'size',
      header: 'Size',
      sortable: !term,
      sortDescFirst: true,
      className: 'hidden sm:table-cell text-right',
      cell: (row) => (row.size === null ? '' : format.bytes(row.size)),
    },
    {
      id: 'date',
      header: 'Modified',
      sortable: !term,
      sortDescFirst: true,
      className: 'hidden md:table-cell',
      cell: (row) => format.dateTime(row.updatedAt),
    },
    ...(clientId
      ? [
          {
            id: 'portal',
            header: 'Portal',
            className: 'hidden md:table-cell',
            cell: (row: TItem) => <PortalBadge state={row.portal} hiddenBy={row.hiddenBy} />,
          },
        ]
      : []),
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (row) => <ItemActions item={row} clientId={clientId} onChanged={refresh} />,
    },
  ];

  return (
    <section
      aria-label="Documents"
      className={cn('flex flex-col gap-3 rounded-md', dragging && 'outline-2 outline-dashed outline-primary')}
      onDragOver={(e) => {
        if (!canCreate || showTrash) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="documents-drop-zone"
    >
      <nav aria-label="Folder path" className="text-sm">
        <ol className="flex flex-wrap items-center gap-1">
          {data.path.map((crumb, i) => {
            const last = i === data.path.length - 1;
            return (
              <li key={crumb.id} className="inline-flex items-center gap-1">
                {i > 0 ? <span className="text-muted-fg">/</span> : null}
                {last ? (
                  <span aria-current="page" className="font-medium">
                    {crumb.name}
                  </span>
                ) : (
                  <Link
                    {...folderLink(clientId, crumb.parentId === null ? null : crumb.id)}
                    className="text-muted-fg hover:text-fg hover:underline"
                  >
                    {crumb.name}
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-48 flex-1">
          <Search
            aria-hidden="true"
            className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-fg"
          />
          <Input
            aria-label={clientId ? "Search this client's documents by name" : 'Search the vault by name'}
            placeholder="Search by name"
            className="pl-8"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        {canCreate ? (
          <>
            <Button variant="outline" onClick={() => setNewFolder(true)}>
              <FolderPlus aria-hidden="true" /> New folder
            </Button>
            <Button onClick={() => picker.current?.click()}>
              <Upload aria-hidden="true" /> Upload
            </Button>
            {chooseShare ? (
              <Checkbox
                label="Share uploads with the portal"
                checked={share}
                onCheckedChange={(checked) => setShareChoice(checked === true)}
              />
            ) : null}
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              data-testid="documents-file-input"
              onChange={(e) => {
                addFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </>
        ) : null}
        <Button
          variant="outline"
          onClick={() =>
            saveFile(`/api/documents/folders/${currentId}/zip`, `${data.folder.name}.zip`).catch(
              (e: unknown) => toast.error(e instanceof Error ? e.message : 'Download failed'),
            )
          }
        >
          <FolderDown aria-hidden="true" /> Download folder
        </Button>
        <Button
          variant={showTrash ? 'secondary' : 'ghost'}
          aria-pressed={showTrash}
          onClick={() => setShowTrash((v) => !v)}
        >
          <Trash2 aria-hidden="true" /> Trash
        </Button>
      </div>
      {canCreate && chooseShare && share && portal.hiddenBy.length ? (
        <p className="text-sm text-muted-fg">
          Uploading here also shares {theFolders(portal.hiddenBy)} with the portal, so the client sees the
          files.
        </p>
      ) : null}
      {clientId && data.folder.parentId !== null && !showTrash ? (
        <FolderPortalNote folder={data.folder} onShare={canEdit ? () => void shareThisFolder() : undefined} />
      ) : null}
      <UploadList
        uploads={uploads.uploads}
        onCancel={uploads.cancel}
        onRetry={uploads.retry}
        onClear={uploads.clearFinished}
      />
      {showTrash ? (
        <TrashView
          clientId={clientId}
          onRestored={(target) => {
            refresh();
            if (target !== currentId)
              void navigate(folderLink(clientId, target === root?.id ? null : target));
          }}
        />
      ) : (
        <DataTable<TItem>
          label={`Contents of ${data.folder.name}`}
          columns={columns}
          rows={rows}
          getRowId={(row) => `${row.kind}:${row.id}`}
          rowLink={(row) => (row.kind === 'folder' ? folderLink(clientId, row.id) : null)}
          total={term ? rows.length : data.documents.total}
          // The folder's sub-folders head its first page of files: the count is of everything listed.
          leading={term ? 0 : data.folders.length}
          page={term ? 1 : page}
          pageSize={term ? Math.max(rows.length, 1) : PAGE_SIZE}
          sort={sort}
          direction={direction}
          onPageChange={setPage}
          onSortChange={(next, dir) => {
            setSort(next as TDocumentSort);
            setDirection(dir);
            setPage(1);
          }}
          loading={contents.isPlaceholderData}
          empty={
            <EmptyState
              icon={Folder}
              title={term ? 'No file matches this name' : 'This folder is empty'}
              message={term ? undefined : canCreate ? 'Drop files here or use Upload.' : undefined}
            />
          }
        />
      )}
      <NameDialog
        open={newFolder}
        onOpenChange={setNewFolder}
        kind="folder"
        title="New folder"
        initial=""
        submitLabel="Create folder"
        pending={createFolder.isPending}
        onSubmit={(name) => createFolder.mutate({ parentId: currentId, name })}
      />
    </section>
  );
}
