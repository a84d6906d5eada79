import { Link, type LinkProps } from '@tanstack/react-router';
import { Button } from '@web/ui';
import { SearchX } from 'lucide-react';

export type TRecordNotFoundProps = {
  /** What was asked for, lower case: "client", "project", "folder". */
  thing: string;
  /** The list to go back to, and its name ("Back to clients"). */
  back: { to: LinkProps['to']; params?: LinkProps['params']; label: string };
};

/**
 * One answer for a record that does not exist or is not yours (the server's NOT_FOUND), inside the
 * app shell: the same panel for every record, with a way back to its list and no toast.
 * An invalid URL is another matter: the route's 404 "Page Not Found: {fullPath}" (SPEC.md §8).
 */
export function RecordNotFound({ thing, back }: TRecordNotFoundProps) {
  const title = `${thing.charAt(0).toUpperCase()}${thing.slice(1)} not found`;
  return (
    <section
      aria-labelledby="record-not-found-title"
      data-testid="record-not-found"
      className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-6 py-16 text-center"
    >
      <div className="mb-1 grid size-10 place-items-center rounded-full bg-muted text-muted-fg">
        <SearchX aria-hidden="true" className="size-5" />
      </div>
      <h1 id="record-not-found-title" className="text-base font-semibold text-fg">
        {title}
      </h1>
      <p className="max-w-sm text-sm text-muted-fg">
        This {thing} does not exist, or it is not yours to see. It may have been deleted, or the link is
        wrong.
      </p>
      <Button asChild variant="outline" className="mt-2">
        <Link to={back.to} params={back.params as never}>
          {back.label}
        </Link>
      </Button>
    </section>
  );
}
