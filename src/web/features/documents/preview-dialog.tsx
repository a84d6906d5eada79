import { documentPreviewPath } from '@domain/documents';
import { DialogContent, Dialog as DialogRoot, Spinner } from '@web/ui';
import { useEffect, useState } from 'react';
import { signedLink } from './file-transfer';

/**
 * Shows a PDF or an image straight from the preview route by a signed link: the browser streams it
 * into the frame (the route serves it sandboxed, with no script), never through page memory.
 */
export function PreviewDialog({
  file,
  onClose,
}: {
  file: { id: string; name: string; contentType: string } | null;
  onClose: () => void;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return;
    let closed = false;
    setUrl(null);
    setError(null);
    signedLink(documentPreviewPath(file.id))
      .then((link) => {
        if (!closed) setUrl(link);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The preview failed'));
    return () => {
      closed = true;
    };
  }, [file]);
  const isPdf = file?.contentType === 'application/pdf';
  return (
    <DialogRoot open={file !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={file?.name ?? 'Preview'} size="xl">
        <div className="grid min-h-[60vh] place-items-center">
          {error ? (
            <p className="text-sm text-danger">{error}</p>
          ) : !url ? (
            <Spinner />
          ) : isPdf ? (
            <iframe
              title={`Preview of ${file?.name}`}
              src={url}
              className="h-[70vh] w-full rounded border border-border"
            />
          ) : (
            <img
              src={url}
              alt={`Preview of ${file?.name}`}
              className="max-h-[70vh] max-w-full object-contain"
            />
          )}
        </div>
      </DialogContent>
    </DialogRoot>
  );
}
