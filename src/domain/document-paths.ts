// The documents' file routes, without zod: the uploader (the portal's request screen among its
// users) reads them on its first load (documents.ts, with the schemas, re-exports them).
export const DOCUMENT_UPLOAD_PATH = '/api/documents/upload';
export const documentDownloadPath = (id: string, version?: number) =>
  `/api/documents/${id}/download${version ? `?version=${version}` : ''}`;
