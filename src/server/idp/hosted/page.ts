import { authorizeParams, type TAuthorizeRequest } from './request';

// The pages the provider serves itself: plain server-rendered HTML, no script, every control
// labelled, errors announced (role=alert). Their own content security policy lets the form's
// answer redirect to the app's registered callback.

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#111;margin:0}
main{max-width:24rem;margin:4rem auto;background:#fff;border:1px solid #dde;border-radius:.5rem;padding:2rem}
h1{font-size:1.4rem;margin:0 0 1rem}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #99a;border-radius:.3rem;font-size:1rem}
button,.provider{display:block;width:100%;box-sizing:border-box;margin-top:1.25rem;padding:.6rem;border:0;
border-radius:.3rem;background:#1d4ed8;color:#fff;font-size:1rem;text-align:center;text-decoration:none;cursor:pointer}
.provider{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8;margin-top:.75rem}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
[role=alert]{background:#fee2e2;color:#7f1d1d;padding:.6rem;border-radius:.3rem}
.or{text-align:center;color:#555;margin-top:1.25rem}`;

export function pagePolicy(formTargets: string[]): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>${STYLE}</style></head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

const alert = (error: string | undefined) => (error ? `<p role="alert" id="error">${esc(error)}</p>` : '');
const describedBy = (error: string | undefined) =>
  error ? ' aria-describedby="error" aria-invalid="true"' : '';

export function signInPage(opts: {
  request: TAuthorizeRequest;
  csrf: string;
  action: string;
  providers: { name: string; href: string }[];
  email?: string;
  error?: string;
}): string {
  const { request, csrf, error } = opts;
  const providers = opts.providers.length
    ? `<p class="or">or</p>${opts.providers
        .map((p) => `<a class="provider" href="${esc(p.href)}">Sign in with ${esc(p.name)}</a>`)
        .join('')}`
    : '';
  return layout(
    'Sign in',
    `${alert(error)}<form method="post" action="${esc(opts.action)}">
${hidden({ ...authorizeParams(request), _csrf: csrf, step: 'password' })}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${esc(opts.email ?? '')}"${describedBy(error)}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${describedBy(error)}>
<button type="submit">Sign in</button></form>${providers}`,
  );
}

export function mfaPage(opts: {
  request: TAuthorizeRequest;
  csrf: string;
  action: string;
  session: string;
  error?: string;
}): string {
  const { request, csrf, error } = opts;
  return layout(
    'Enter your code',
    `${alert(error)}<form method="post" action="${esc(opts.action)}">
${hidden({ ...authorizeParams(request), _csrf: csrf, step: 'mfa', session: opts.session })}
<label for="code">Code from your authenticator app</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus${describedBy(error)}>
<button type="submit">Continue</button></form>`,
  );
}

export function messagePage(title: string, text: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    `<p role="alert">${esc(text)}</p>${link ? `<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>` : ''}`,
  );
}
