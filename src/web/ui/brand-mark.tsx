/**
 * The product's mark (public/favicon.svg, the tab's icon) drawn in the page: an <img> of the same
 * file was one more request (about 1 KB with its headers) on the login pages and the shell.
 * Decorative: the product's name is beside it.
 */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <path d="M10 23V9h7a5 5 0 0 1 0 10h-4v4z" fill="#fff" />
    </svg>
  );
}
