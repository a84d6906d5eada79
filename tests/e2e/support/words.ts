import type { Page } from 'playwright-core';
import { onTestFinished } from 'vitest';

/**
 * Two classes of fault checked on every page a test opens (issue 34), as the accessibility audit is:
 *
 * - Messages written for programmers: a toast, an alert or a status line that carries a field path
 *   ("minutes: …", "bodyHtml: …"), zod's own words ("Invalid input: expected string"), a protocol's
 *   ("Code mismatch and fail enable Software Token MFA", "…Exception") or the transport's ("Unable to
 *   transform response from server").
 * - Dates not in the firm's format: a day written "2026-12-18" anywhere a person reads, "Sept" beside
 *   "Sep", or a native date input (it shows the browser's locale, not the firm's).
 *
 * The page reports what it sees as it changes (a MutationObserver, so a toast that fades is still
 * caught), and the test fails at its end on anything found.
 */
export type TWordFinding = { kind: 'message' | 'date'; text: string; url: string };

export const PROGRAMMER_TEXT = [
  /^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)*: [A-Z]/, // a field path before the schema's message
  /\bInvalid input\b|expected [a-z]+, received/i, // zod's own
  /[A-Za-z]+Exception\b|Software Token|Code mismatch|conform with policy/, // Cognito's protocol
  /Unable to transform response|Failed to fetch|Unexpected token|\bundefined\b|\[object Object\]/,
];

function observe(report: (finding: { kind: 'message' | 'date'; text: string }) => void, patterns: string[]) {
  const programmer = patterns.map(
    (p) => new RegExp(p.slice(1, p.lastIndexOf('/')), p.slice(p.lastIndexOf('/') + 1)),
  );
  const iso = /\b(19|20|21)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/;
  const seen = new Set<string>();
  const once = (kind: 'message' | 'date', text: string) => {
    const key = `${kind}|${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    report({ kind, text: text.slice(0, 300) });
  };
  const MESSAGE = '[data-sonner-toast], [role="alert"], [role="status"], [aria-live]';
  // Text a person does not read as a date: code, a raw value they typed, an address.
  const RAW = 'input, textarea, code, pre, script, style, [contenteditable], [data-raw]';
  const check = (root: Node) => {
    const element = root instanceof Element ? root : root.parentElement;
    if (!element || element.closest(RAW)) return;
    const text = (root.textContent ?? '').trim();
    if (!text) return;
    if (element.closest(MESSAGE) || element.matches(MESSAGE)) {
      for (const line of (element.closest(MESSAGE) ?? element).textContent?.split('\n') ?? []) {
        if (programmer.some((re) => re.test(line.trim()))) once('message', line.trim());
      }
    }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode() as Node) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      const value = node.textContent ?? '';
      if (node.parentElement?.closest(RAW)) continue;
      if (iso.test(value) || /\bSept\b/.test(value)) once('date', value.trim());
    }
    if (element instanceof HTMLElement) {
      for (const input of element.querySelectorAll(
        'input[type="date"], input[type="datetime-local"], input[type="time"], input[type="month"]',
      ))
        once('date', `native <input type="${input.getAttribute('type')}">`);
    }
  };
  const start = () => {
    check(document.body);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') check(r.target);
        for (const added of r.addedNodes) check(added);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
}

/** Watches a page for both classes; the test fails at its end on what was found. */
export async function watchWords(page: Page, allow: RegExp[] = []): Promise<void> {
  const findings: TWordFinding[] = [];
  try {
    onTestFinished(() => {
      const failing = findings.filter((f) => !allow.some((re) => re.test(f.text)));
      if (failing.length) {
        throw new Error(
          `Words or dates not written for people (issue 34):\n${failing
            .map((f) => `  ${f.kind === 'message' ? 'message' : 'date'}: “${f.text}” at ${f.url}`)
            .join('\n')}`,
        );
      }
    });
  } catch {
    return; // Opened outside a test: nobody to fail.
  }
  await page.exposeFunction('__reportWords', (f: { kind: 'message' | 'date'; text: string }) => {
    findings.push({ ...f, url: page.url() });
  });
  const patterns = JSON.stringify(PROGRAMMER_TEXT.map(String));
  await page.addInitScript(`(${observe})((f) => void window.__reportWords(f), ${patterns})`);
}
