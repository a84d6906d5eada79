/**
 * Content-Disposition for a name a person chose: an ASCII fallback plus the exact name as RFC 5987
 * UTF-8, so no quote, semicolon, slash or line break in a name can reach the header's syntax.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string) {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/;%]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
