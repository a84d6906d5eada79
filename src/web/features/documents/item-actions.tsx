import { documentDownloadPath, isPreviewable, type TPortalState } from '@domain/documents';
import { useMutation } from '@tanstack/react-query';
import {
  confirm,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  IconButton,
  toast,
} from '@web/ui';
import {
  Download,
  Eye,
  EyeOff,
  FolderInput,
  History,
  MoreHorizontal,
  Pencil,
  PenLine,
  ScanEye,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequestSignatureDialog } from '../proposals/request-signature-dialog';
import { useCan } from '../shell/access';
import { saveFile } from './file-transfer';
import { MoveDialog } from './move-dialog';
import { NameDialog } from './name-dialog';
import { confirmShare, sharedMessage, type TFolderRef } from './portal-state';
import { PreviewDialog } from './preview-dialog';
import { VersionsDialog } from './versions-dialog';

/** A row of the folder table: a sub-folder or a file. */
export type TItem = {
  kind: 'folder' | 'file';
  id: string;
  name: string;
  size: number | null;
  updatedAt: Date;
  /** Its own mark: shared with the portal or not. */
  visibleToPortal: boolean;
  /** What the client sees of it (the server's answer). */
  portal: TPortalState;
  /** The internal folders above it: sharing it shares them too. */
  hiddenBy: TFolderRef[];
  contentType: string | null;
  version: number | null;
  folderId: string;
  folderName: string | null;
};

/** The menu of one row: preview, download, versions, rename, move, portal sharing, delete. */
export function ItemActions({
  item,
  clientId,
  onChanged,
}: {
  item: TItem;
  clientId: string | null;
  onChanged: () => void;
}) {
  const canEdit = useCan('documents.edit');
  const canDelete = useCan('documents.delete');
  const canSign = useCan('proposals.manage');
  const [dialog, setDialog] = useState<'rename' | 'move' | 'preview' | 'versions' | 'sign' | null>(null);
  const signable = !!clientId && item.kind === 'file' && item.contentType === 'application/pdf' && canSign;
  const isFolder = item.kind === 'folder';
  const close = () => setDialog(null);
  const done = (message: string) => {
    toast.success(message);
    close();
    onChanged();
  };
  const renameFolder = useMutation(
    trpc.documents.renameFolder.mutationOptions({ onSuccess: () => done('Folder renamed') }),
  );
  const renameFile = useMutation(
    trpc.documents.rename.mutationOptions({ onSuccess: () => done('File renamed') }),
  );
  const moveFolder = useMutation(
    trpc.documents.moveFolder.mutationOptions({ onSuccess: () => done(`Moved ${item.name}`) }),
  );
  const moveFile = useMutation(
    trpc.documents.move.mutationOptions({ onSuccess: () => done(`Moved ${item.name}`) }),
  );
  const removeFolder = useMutation(
    trpc.documents.deleteFolder.mutationOptions({ onSuccess: () => done(`Moved ${item.name} to the trash`) }),
  );
  const removeFile = useMutation(
    trpc.documents.delete.mutationOptions({ onSuccess: () => done(`Moved ${item.name} to the trash`) }),
  );
  const shared = (result: { visibleToPortal: boolean; alsoShared: TFolderRef[] }) => {
    toast.success(
      result.visibleToPortal
        ? sharedMessage(item.name, result.alsoShared)
        : `${item.name} is internal now: the client no longer sees it${isFolder ? ' or anything in it' : ''}`,
    );
    onChanged();
  };
  const shareFolder = useMutation(trpc.documents.setFolderVisibility.mutationOptions({ onSuccess: shared }));
  const shareFile = useMutation(trpc.documents.setVisibility.mutationOptions({ onSuccess: shared }));

  const download = () =>
    saveFile(
      isFolder ? `/api/documents/folders/${item.id}/zip` : documentDownloadPath(item.id),
      isFolder ? `${item.name}.zip` : item.name,
    ).catch((e: unknown) => toast.error(e instanceof Error ? e.message : 'Download failed'));
  const setShared = async (visibleToPortal: boolean) => {
    if (visibleToPortal && !(await confirmShare(item.name, item.hiddenBy))) return;
    if (isFolder) shareFolder.mutate({ folderId: item.id, visibleToPortal });
    else shareFile.mutate({ documentId: item.id, visibleToPortal });
  };
  const remove = async () => {
    const ok = await confirm({
      title: `Delete ${item.name}?`,
      message: `It goes to the trash${isFolder ? ' with everything in it' : ''}, where it can be restored for 30 days.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    if (isFolder) removeFolder.mutate({ folderId: item.id });
    else removeFile.mutate({ documentId: item.id });
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <IconButton aria-label={`Actions for ${item.name}`} size="sm">
            <MoreHorizontal aria-hidden="true" />
          </IconButton>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          {!isFolder && item.contentType && isPreviewable(item.contentType) ? (
            <DropdownMenuItem onSelect={() => setDialog('preview')}>
              <ScanEye aria-hidden="true" /> Preview
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuItem onSelect={download}>
            <Download aria-hidden="true" /> {isFolder ? 'Download as zip' : 'Download'}
          </DropdownMenuItem>
          {!isFolder ? (
            <DropdownMenuItem onSelect={() => setDialog('versions')}>
              <History aria-hidden="true" /> Versions
            </DropdownMenuItem>
          ) : null}
          {signable ? (
            <DropdownMenuItem onSelect={() => setDialog('sign')}>
              <PenLine aria-hidden="true" /> Request signatures
            </DropdownMenuItem>
          ) : null}
          {canEdit ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => setDialog('rename')}>
                <Pencil aria-hidden="true" /> Rename
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setDialog('move')}>
                <FolderInput aria-hidden="true" /> Move
              </DropdownMenuItem>
              {/* Marked shared but hidden by a folder: both, sharing opens the way. */}
              {clientId && item.portal !== 'visible' ? (
                <DropdownMenuItem onSelect={() => void setShared(true)}>
                  <Eye aria-hidden="true" /> Share with the portal
                </DropdownMenuItem>
              ) : null}
              {clientId && item.visibleToPortal ? (
                <DropdownMenuItem onSelect={() => void setShared(false)}>
                  <EyeOff aria-hidden="true" /> Make internal
                </DropdownMenuItem>
              ) : null}
            </>
          ) : null}
          {canDelete ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem danger onSelect={() => void remove()}>
                <Trash2 aria-hidden="true" /> Delete
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      {signable && clientId && dialog === 'sign' ? (
        <RequestSignatureDialog
          open
          onOpenChange={(open) => !open && close()}
          clientId={clientId}
          document={{ id: item.id, name: item.name }}
        />
      ) : null}
      <NameDialog
        open={dialog === 'rename'}
        onOpenChange={(open) => !open && close()}
        kind={isFolder ? 'folder' : 'file'}
        title={`Rename ${item.name}`}
        initial={item.name}
        submitLabel="Rename"
        pending={renameFolder.isPending || renameFile.isPending}
        onSubmit={(name) =>
          isFolder
            ? renameFolder.mutate({ folderId: item.id, name })
            : renameFile.mutate({ documentId: item.id, name })
        }
      />
      <MoveDialog
        open={dialog === 'move'}
        onOpenChange={(open) => !open && close()}
        clientId={clientId}
        itemName={item.name}
        shared={item.visibleToPortal}
        excludeId={isFolder ? item.id : undefined}
        currentFolderId={item.folderId}
        pending={moveFolder.isPending || moveFile.isPending}
        onMove={(targetId) =>
          isFolder
            ? moveFolder.mutate({ folderId: item.id, targetId })
            : moveFile.mutate({ documentId: item.id, targetId })
        }
      />
      <PreviewDialog
        file={
          dialog === 'preview' ? { id: item.id, name: item.name, contentType: item.contentType ?? '' } : null
        }
        onClose={close}
      />
      <VersionsDialog
        file={dialog === 'versions' ? { id: item.id, name: item.name } : null}
        onClose={close}
      />
    </>
  );
}
