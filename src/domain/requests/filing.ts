// Where a request's accepted files are filed: a folder of the client's documents named for the
// request, and for its period when it has one ("Income tax return 2026-27 · FY 2025-26").

const MAX_FOLDER_NAME = 200;

/** The folder's name: no "/" (a path separator in folder paths), short enough to leave room for "(n)". */
export function filingFolderName(title: string, period?: string | null): string {
  const base = title.replaceAll('/', '-').trim();
  const withPeriod =
    period && !base.toLowerCase().includes(period.toLowerCase())
      ? `${base} · ${period.replaceAll('/', '-')}`
      : base;
  return withPeriod.slice(0, MAX_FOLDER_NAME).trim() || 'Request';
}

/** "Form 16.pdf" → "Form 16 (2).pdf": the extension stays last so the file still opens. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}
