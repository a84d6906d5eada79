import { documentDownloadPath } from '@domain/documents';
import { useQuery } from '@tanstack/react-query';
import { Button, DialogContent, Dialog as DialogRoot, Spinner, toast, useFormat } from '@web/ui';
import { Download } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { saveFile } from './file-transfer';

/** A file's versions, newest first, each downloadable. */
export function VersionsDialog({
  file,
  onClose,
}: {
  file: { id: string; name: string } | null;
  onClose: () => void;
}) {
  const format = useFormat();
  const versions = useQuery({
    ...trpc.documents.versions.queryOptions({ documentId: file?.id ?? '' }),
    enabled: file !== null,
  });
  return (
    <DialogRoot open={file !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`Versions of ${file?.name ?? ''}`} size="lg">
        {!versions.data ? (
          <div className="grid place-items-center p-6">
            <Spinner />
          </div>
        ) : (
          <ul className="divide-y divide-border">
            {versions.data.versions.map((v) => (
              <li key={v.id} className="flex items-center gap-3 py-2 text-sm">
                <span className="w-10 font-medium">v{v.version}</span>
                <span className="flex-1 text-muted-fg">
                  {format.dateTime(v.createdAt)} · {v.uploadedBy ?? 'Unknown'} · {format.bytes(v.size)}
                  <span className="block font-mono text-xs" title="SHA-256">
                    {v.checksumSha256.slice(0, 16)}…
                  </span>
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    file &&
                    saveFile(documentDownloadPath(file.id, v.version), file.name).catch((e: unknown) =>
                      toast.error(e instanceof Error ? e.message : 'Download failed'),
                    )
                  }
                >
                  <Download aria-hidden="true" /> Download
                </Button>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </DialogRoot>
  );
}
