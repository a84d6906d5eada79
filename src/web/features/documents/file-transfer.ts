import { trpcClient } from '../../lib/trpc';

/**
 * A short-lived signed link to a staff file route (download, preview, zip, export): the server
 * checks the route's rules now and the link opens that route and object only, for a few minutes.
 * The browser then fetches the file itself, streaming it to disk or into a frame: no file is ever
 * held in page memory, whatever its size.
 */
export async function signedLink(path: string): Promise<string> {
  return (await trpcClient.links.issue.mutate({ path })).url;
}

/**
 * Saves a file route to the person's computer: a link with `download`, which the browser streams
 * to disk under the name the server gives (Content-Disposition), falling back to `fallbackName`.
 */
export async function saveFile(path: string, fallbackName: string): Promise<void> {
  const url = await signedLink(path);
  const link = document.createElement('a');
  link.href = url;
  link.download = fallbackName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
