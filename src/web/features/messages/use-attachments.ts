import { useCallback, useRef, useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';

export type TPendingFile = {
  key: string;
  name: string;
  size: number;
  loaded: number;
  status: 'uploading' | 'done' | 'failed';
  documentId?: string;
  message?: string;
};

/**
 * A composer's files: each uploaded at once (one request each, with its progress) to the thread's
 * upload route, which files it in the client's Messages folder; sent with the message by id.
 */
export function useAttachments(options: { url: string; staff: boolean }) {
  const [files, setFiles] = useState<TPendingFile[]>([]);
  const xhrs = useRef(new Map<string, XMLHttpRequest>());
  const patch = useCallback((key: string, next: Partial<TPendingFile>) => {
    setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...next } : f)));
  }, []);

  const add = useCallback(
    async (picked: File[]) => {
      const headers = options.staff ? await staffAuthHeaders() : {};
      for (const file of picked) {
        const key = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
        setFiles((list) => [
          ...list,
          { key, name: file.name, size: file.size, loaded: 0, status: 'uploading' },
        ]);
        const xhr = new XMLHttpRequest();
        xhrs.current.set(key, xhr);
        xhr.open('POST', options.url);
        for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
        xhr.upload.onprogress = (e) => patch(key, { loaded: e.loaded });
        xhr.onload = () => {
          xhrs.current.delete(key);
          let body: { documentId?: string; name?: string; message?: string } = {};
          try {
            body = JSON.parse(xhr.responseText);
          } catch {
            // not JSON: the general message below
          }
          if (xhr.status >= 200 && xhr.status < 300 && body.documentId)
            patch(key, {
              status: 'done',
              loaded: file.size,
              documentId: body.documentId,
              name: body.name ?? file.name,
            });
          else
            patch(key, { status: 'failed', message: body.message ?? 'The upload failed. Please try again.' });
        };
        xhr.onerror = () => patch(key, { status: 'failed', message: 'Network Error' });
        const form = new FormData();
        form.append('file', file, file.name);
        xhr.send(form);
      }
    },
    [options.url, options.staff, patch],
  );

  const remove = useCallback((key: string) => {
    xhrs.current.get(key)?.abort();
    xhrs.current.delete(key);
    setFiles((list) => list.filter((f) => f.key !== key));
  }, []);

  const clear = useCallback(() => setFiles([]), []);
  const ready = files.filter((f) => f.status === 'done' && f.documentId).map((f) => f.documentId as string);
  const busy = files.some((f) => f.status === 'uploading');
  return { files, add, remove, clear, ready, busy };
}
