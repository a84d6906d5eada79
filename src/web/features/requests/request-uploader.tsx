import { Button } from '@web/ui';
import { Upload } from 'lucide-react';
import { useRef } from 'react';
import { UploadList } from '../documents/upload-list';
import { type TUploadTarget, useUploads } from '../documents/use-uploads';

const REQUEST_UPLOAD_PATH = '/api/clientportal/requests/upload';
const noHeaders = async () => ({});
const asUrl = (target: TUploadTarget) => (typeof target === 'string' ? target : '');

/**
 * Files for one item of a request: the documents' upload machinery (one request per file, several
 * at once, each with its progress and cancel) pointed at the requests' upload route. On a phone the
 * picker offers the camera as well as files.
 */
export function RequestUploader({
  target,
  label,
  onUploaded,
}: {
  target: { clientId: string; requestId: string; itemId: string };
  label: string;
  onUploaded: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { uploads, add, cancel, clearFinished } = useUploads({
    maxBytes: undefined,
    onUploaded,
    url: asUrl,
    headers: noHeaders,
  });
  const url = `${REQUEST_UPLOAD_PATH}?${new URLSearchParams(target)}`;
  return (
    <div className="flex flex-col gap-2">
      <input
        ref={input}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length) add(files, url);
          e.target.value = '';
        }}
      />
      <Button type="button" variant="secondary" className="self-start" onClick={() => input.current?.click()}>
        <Upload aria-hidden="true" />
        {label}
      </Button>
      <UploadList uploads={uploads} onCancel={cancel} onClear={clearFinished} />
    </div>
  );
}
