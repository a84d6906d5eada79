import type { TReportExport } from '@domain/reports';
import { ExportMenu } from '../documents/export-menu';

/** Every row the report's filters cover (all pages, the screen's sort), as CSV or Excel. */
export function ExportButtons({
  report,
  input,
}: {
  report: TReportExport;
  input: Record<string, string | number | undefined>;
}) {
  const query = new URLSearchParams(
    Object.entries(input)
      .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  return (
    <ExportMenu
      pathFor={(ext) => `/api/reports/${report}/export.${ext}${query ? `?${query}` : ''}`}
      fallbackName={(ext) => `${report}-report.${ext}`}
    />
  );
}
