// sonner itself, fetched with the first toast (or the first key or tap) by toaster.tsx's facade
// rather than with every first page.
export { Toaster as Sonner, toast } from 'sonner';
