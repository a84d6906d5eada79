import { format, parseISO } from 'date-fns';

/** A due date ('YYYY-MM-DD') as people read it; parsed as a calendar day, never shifted by time zone. */
export function formatDue(day: string): string {
  return format(parseISO(day), 'd MMM yyyy');
}

/** Tags typed as "gst, audit": trimmed, lower-cased, once each. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}
