import { documentPreviewPath } from '@domain/documents';
import { DialogContent, Dialog as DialogRoot, Spinner } from '@web/ui';
import { useEffect, useState } from 'react';
import { fetchFile } from './file-transfer';

/**
 * Shows a PDF or an image. The preview route needs the staff token, which a frame cannot send, so
 * the bytes are fetched and shown from a blob URL (which also keeps them off our origin).
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
    let revoked = false;
    let objectUrl: string | null = null;
    setUrl(null);
    setError(null);
    fetchFile(documentPreviewPath(file.id))
      .then(({ blob }) => {
        if (revoked) return;
        objectUrl = URL.createObjectURL(new Blob([blob], { type: file.contentType }));
        setUrl(objectUrl);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The preview failed'));
    return () => {
      revoked = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
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
