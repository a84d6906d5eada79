import { PORTAL_PAGE_SIZE } from '@domain/client-portal-constants';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, linkOptions } from '@tanstack/react-router';
import { type BreadcrumbItem, Breadcrumbs, Card, EmptyState, Pagination, Skeleton } from '@web/ui';
import { Folder, FolderOpen } from 'lucide-react';
import { useCallback, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { FileRow } from './parts';
import { PortalUploader } from './portal-uploads';

const topRoute = getRouteApi('/clientportal/$clientId/documents/');
const folderRoute = getRouteApi('/clientportal/$clientId/documents/$folderId');

export function PortalDocumentsTop() {
  const { clientId } = topRoute.useParams();
  return <PortalDocuments clientId={clientId} />;
}

export function PortalDocumentsFolder() {
  const { clientId, folderId } = folderRoute.useParams();
  return <PortalDocuments key={folderId} clientId={clientId} folderId={folderId} />;
}

/** The files the firm shares with the client, folder by folder; the client uploads into them. */
function PortalDocuments({ clientId, folderId }: { clientId: string; folderId?: string }) {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const contents = useQuery({
    ...trpc.clientPortalDocuments.folder.queryOptions({
      clientId,
      folderId,
      page,
      pageSize: PORTAL_PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.clientPortalDocuments.folder.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.clientPortalHome.get.queryKey() });
  }, [queryClient]);
  const data = contents.data;
  const home = linkOptions({ to: '/clientportal/$clientId', params: { clientId } });
  const crumbs: BreadcrumbItem[] = (data?.path ?? []).map((p, i) =>
    i === 0
      ? {
          label: 'Documents',
          ...linkOptions({ to: '/clientportal/$clientId/documents', params: { clientId } }),
        }
      : {
          label: p.name,
          ...linkOptions({
            to: '/clientportal/$clientId/documents/$folderId',
            params: { clientId, folderId: p.id },
          }),
        },
  );
  if (crumbs.length === 0) crumbs.push({ label: 'Documents' });
  return (
    <div className="flex flex-col gap-4">
      <Breadcrumbs home={home} items={crumbs} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-xl font-semibold tracking-tight">
          {data?.folder && !data.folder.isTop ? data.folder.name : 'Documents'}
        </h1>
      </div>
      {/* The folder from the address, not from the listing: an upload chosen before the listing
          arrives (or while the previous folder's is still shown) lands where the person is. */}
      <PortalUploader target={{ clientId, folderId }} onUploaded={refresh} />
      {!data ? (
        <Skeleton className="h-48" />
      ) : data.folders.length === 0 && data.documents.total === 0 ? (
        <Card>
          <EmptyState
            icon={FolderOpen}
            title="No documents here yet"
            message="Files your firm shares with you appear here. You can upload yours too."
          />
        </Card>
      ) : (
        <Card className="px-4">
          {data.folders.length ? (
            <ul aria-label="Folders" className="divide-y divide-border border-b border-border">
              {data.folders.map((f) => (
                <li key={f.id}>
                  <Link
                    to="/clientportal/$clientId/documents/$folderId"
                    params={{ clientId, folderId: f.id }}
                    className="flex items-center gap-3 py-3 text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <Folder aria-hidden="true" className="size-5 shrink-0 text-primary" />
                    <span className="truncate">{f.name}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          {data.documents.rows.length ? (
            <ul aria-label="Files" className="divide-y divide-border">
              {data.documents.rows.map((file) => (
                <FileRow key={file.id} clientId={clientId} file={file} />
              ))}
            </ul>
          ) : null}
          {data.documents.total > PORTAL_PAGE_SIZE ? (
            <Pagination
              page={page}
              pageSize={PORTAL_PAGE_SIZE}
              total={data.documents.total}
              onPageChange={setPage}
              className="px-0"
            />
          ) : null}
        </Card>
      )}
    </div>
  );
}
