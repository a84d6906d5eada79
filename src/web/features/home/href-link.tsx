import { useRouter } from '@tanstack/react-router';
import type { ComponentProps, MouseEvent } from 'react';

/**
 * A link to a URL with its search already written (the dashboard's filtered lists): a real <a> for
 * new tabs and keyboard use, navigated inside the app on a plain click.
 */
export function HrefLink({ href, onClick, ...props }: ComponentProps<'a'> & { href: string }) {
  const router = useRouter();
  const go = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void router.navigate({ href });
  };
  return <a href={href} onClick={go} {...props} />;
}
