// What a mailed reply adds to a conversation: the new text, without the quoted history a mail
// program appends below it nor the sender's signature. Plain-text rules that cover the common mail
// programs (Gmail, Outlook, Apple Mail, phones); what they miss stays in, which loses nothing.

const QUOTE_HEADERS: RegExp[] = [
  // Gmail, Apple Mail, Thunderbird: "On Tue, 3 Jun 2026 at 10:00, Priya <p@x.in> wrote:" (may wrap).
  /^\s*On\b[\s\S]{0,300}?\bwrote:\s*$/m,
  // Outlook: "-----Original Message-----" or a "From: … Sent: …" block.
  /^\s*-{2,}\s*Original Message\s*-{2,}\s*$/im,
  /^\s*_{10,}\s*$/m,
  /^\s*From:\s.+\n\s*(Sent|Date):\s.+$/im,
  // A forwarded message's marker, when it is a reply with the thread below.
  /^\s*-{2,}\s*Forwarded message\s*-{2,}\s*$/im,
];

const SIGNATURE_MARKERS: RegExp[] = [
  // The standard delimiter "-- " on its own line (RFC 3676), and the usual "--".
  /^--\s?$/m,
  /^\s*Sent from my (iPhone|iPad|Android|mobile|phone|Samsung|Galaxy)\b.*$/im,
  /^\s*Get Outlook for (iOS|Android)\s*$/im,
];

/** The reply's own text: cut at the first quoted-history header or signature; trailing "> " lines gone. */
export function trimReply(text: string): string {
  let body = text.replace(/\r\n?/g, '\n');
  let cut = body.length;
  for (const pattern of [...QUOTE_HEADERS, ...SIGNATURE_MARKERS]) {
    const match = pattern.exec(body);
    if (match && match.index < cut) cut = match.index;
  }
  body = body.slice(0, cut);
  // Quoted lines ("> …") left at the end (a reply typed above an inline quote with no header).
  const lines = body.split('\n');
  while (lines.length && (/^\s*>/.test(lines.at(-1) ?? '') || !(lines.at(-1) ?? '').trim())) lines.pop();
  return lines.join('\n').trim();
}

/** A subject without its "Re:", "Fwd:", "FW:" prefixes, for matching a mail to a thread. */
export function baseSubject(subject: string): string {
  let s = subject.trim();
  for (;;) {
    const next = s.replace(/^(re|fw|fwd|aw|sv|antw)\s*(\[\d+\])?\s*:\s*/i, '');
    if (next === s) return s;
    s = next;
  }
}
