import { Button } from '@web/ui';
import { Camera, Upload } from 'lucide-react';
import { type ChangeEvent, useRef } from 'react';
import { UploadList } from '../documents/upload-list';
import { type TUploadTarget, useUploads } from '../documents/use-uploads';

const REQUEST_UPLOAD_PATH = '/api/clientportal/requests/upload';
const noHeaders = async () => ({});
const asUrl = (target: TUploadTarget) => (typeof target === 'string' ? target : '');

/**
 * Files for one item of a request: the documents' upload machinery (one request per file, several
 * at once, each with its progress and cancel) pointed at the requests' upload route; "Take a photo"
 * opens a phone's camera (accept + capture).
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
  const camera = useRef<HTMLInputElement>(null);
  const { uploads, add, cancel, retry, clearFinished } = useUploads({
    maxBytes: undefined,
    onUploaded,
    url: asUrl,
    headers: noHeaders,
  });
  const url = `${REQUEST_UPLOAD_PATH}?${new URLSearchParams(target)}`;
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    if (files.length) add(files, url);
    e.target.value = '';
  };
  return (
    <div className="flex flex-col gap-2">
      {/* Several files at once, of any type the server takes (it checks size and type). */}
      <input
        ref={input}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        onChange={pick}
      />
      {/* A phone opens its camera straight away; elsewhere it is a picker of images. */}
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        className="sr-only"
        tabIndex={-1}
        aria-label={`${label}: take a photo`}
        onChange={pick}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={() => input.current?.click()}>
          <Upload aria-hidden="true" />
          {label}
        </Button>
        <Button type="button" variant="outline" onClick={() => camera.current?.click()}>
          <Camera aria-hidden="true" />
          Take a photo
        </Button>
      </div>
      <UploadList uploads={uploads} onCancel={cancel} onRetry={retry} onClear={clearFinished} />
    </div>
  );
}
