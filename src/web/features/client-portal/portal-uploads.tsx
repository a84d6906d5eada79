import { portalUploadUrl } from '@domain/client-portal-constants';
import { Button, cn } from '@web/ui';
import { Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { UploadList } from '../documents/upload-list';
import { type TUploadTarget, useUploads } from '../documents/use-uploads';

const noHeaders = async () => ({});
// The portal's target is its route's whole URL (portalUploadUrl), built before it is queued.
const asUrl = (target: TUploadTarget) => (typeof target === 'string' ? target : '');

/**
 * The documents screens' upload machinery (one request per file, each with its progress and
 * cancel) pointed at the portal's route, which the session cookie authenticates.
 */
export function PortalUploader({
  target,
  label = 'Upload files',
  onUploaded,
}: {
  target: { clientId: string; folderId?: string; taskId?: string };
  label?: string;
  onUploaded: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { uploads, add, cancel, retry, clearFinished } = useUploads({
    maxBytes: undefined,
    onUploaded,
    url: asUrl,
    headers: noHeaders,
  });
  const [over, setOver] = useState(false);
  return (
    // Files dropped anywhere on the uploader go up too (a desktop habit; a phone uses the button).
    <section
      aria-label="Upload"
      className={cn('flex flex-col gap-3 rounded-lg', over && 'outline-2 outline-primary outline-dashed')}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const files = [...e.dataTransfer.files];
        if (files.length) add(files, portalUploadUrl(target));
      }}
    >
      <input
        ref={input}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length) add(files, portalUploadUrl(target));
          e.target.value = '';
        }}
      />
      <Button type="button" variant="secondary" onClick={() => input.current?.click()}>
        <Upload aria-hidden="true" />
        {label}
      </Button>
      <UploadList uploads={uploads} onCancel={cancel} onRetry={retry} onClear={clearFinished} />
    </section>
  );
}
