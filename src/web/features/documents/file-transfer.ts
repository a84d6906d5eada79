import { staffAuthHeaders } from '../../lib/auth';

/**
 * Fetches a file route with the staff token (a bare link cannot carry it) and returns the body as a
 * Blob. Errors carry the server's message.
 */
export async function fetchFile(path: string): Promise<{ blob: Blob; name: string | null }> {
  const res = await fetch(path, { headers: await staffAuthHeaders() });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? 'The download failed. Please try again.');
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  return { blob: await res.blob(), name: encoded ? decodeURIComponent(encoded) : null };
}

/** Saves a file route to the person's computer under the name the server gives. */
export async function saveFile(path: string, fallbackName: string): Promise<void> {
  const { blob, name } = await fetchFile(path);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
