import { getRouteApi } from '@tanstack/react-router';
import { PageHeader } from '@web/ui';
import { NoAccess, useCan } from '../shell/access';
import { DocumentsBrowser } from './documents-browser';

const clientRoot = getRouteApi('/_main/clients/$id/documents/');
const clientFolder = getRouteApi('/_main/clients/$id/documents/$folderId');
const vaultFolder = getRouteApi('/_main/vault/documents/$folderId');

function Guarded({ children }: { children: React.ReactNode }) {
  const canView = useCan('documents.view');
  if (!canView) return <NoAccess message="Your role does not include the firm's documents." />;
  return <>{children}</>;
}

/** The Documents tab of a client (its header and tabs come from the client layout). */
export function ClientDocumentsPage() {
  const { id } = clientRoot.useParams();
  return (
    <Guarded>
      <DocumentsBrowser clientId={id} />
    </Guarded>
  );
}

export function ClientFolderPage() {
  const { id, folderId } = clientFolder.useParams();
  return (
    <Guarded>
      <DocumentsBrowser clientId={id} folderId={folderId} />
    </Guarded>
  );
}

function VaultLayout({ folderId }: { folderId?: string }) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Documents' }]}
        title="Documents"
        description="The firm's own files: internal, never shown in the client portal."
      />
      <Guarded>
        <DocumentsBrowser clientId={null} folderId={folderId} />
      </Guarded>
    </div>
  );
}

export function VaultDocumentsPage() {
  return <VaultLayout />;
}

export function VaultFolderPage() {
  const { folderId } = vaultFolder.useParams();
  return <VaultLayout folderId={folderId} />;
}
