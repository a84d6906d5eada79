import { authorizeParams, type TAuthorizeRequest } from './request';

// The pages the provider serves itself: plain server-rendered HTML, no script, every control
// labelled, errors announced (role=alert). Their own content security policy lets the form's
// answer redirect to the app's registered callback.

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

// The product's light theme (web/base.css): its colours, radius, type sizes and focus ring.
const STYLE = `body{font-family:ui-sans-serif,system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0;font-size:.875rem}
.brand{display:flex;align-items:center;justify-content:center;gap:.5rem;margin:3.5rem 0 1.5rem;font-weight:700;font-size:1.125rem}
.mark{display:inline-grid;place-items:center;width:2rem;height:2rem;border-radius:.5rem;background:#4f46e5;color:#fff}
main{max-width:22rem;margin:0 auto 3rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:2rem;
box-shadow:0 1px 2px rgb(15 23 42/.06)}
h1{font-size:1.5rem;margin:0 0 1.25rem;letter-spacing:-.01em}label{display:block;font-weight:500;margin:1rem 0 .375rem}
input{width:100%;box-sizing:border-box;height:2.25rem;padding:0 .75rem;border:1px solid #e2e8f0;border-radius:.375rem;
font:inherit;background:#fff;color:inherit}
button,.provider{display:block;width:100%;box-sizing:border-box;margin-top:1.5rem;height:2.25rem;line-height:2.25rem;
padding:0 1rem;border:0;border-radius:.375rem;background:#4f46e5;color:#fff;font:inherit;font-weight:500;
text-align:center;text-decoration:none;cursor:pointer}
button:hover{background:#4338ca}.provider{background:#fff;color:#0f172a;border:1px solid #e2e8f0;margin-top:.75rem;line-height:calc(2.25rem - 2px)}
.provider:hover{background:#f1f5f9}a{color:#4f46e5}
:focus-visible{outline:2px solid #6366f1;outline-offset:2px}input:focus-visible{outline-offset:0}
[role=alert]{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;padding:.625rem .75rem;border-radius:.375rem;margin:0 0 1rem}
.or{text-align:center;color:#576579;margin:1.25rem 0 0}.hint{color:#576579;margin:.375rem 0 0;font-size:.8125rem}
.qr{display:flex;justify-content:center;margin:1rem 0}.secret{word-break:break-all;font-size:.8125rem}
.codes{display:grid;grid-template-columns:1fr 1fr;gap:.375rem 1rem;padding:0;list-style:none;font-size:.9375rem}`;

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
<style>${STYLE}</style></head><body><p class="brand"><span class="mark" aria-hidden="true">P</span>Practice</p>
<main><h1>${esc(title)}</h1>${body}</main></body></html>`;
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
  /** The code was mailed (EMAIL_OTP) rather than made by an authenticator app. */
  email?: boolean;
  error?: string;
}): string {
  const { request, csrf, error } = opts;
  return layout(
    'Enter your code',
    `${alert(error)}<form method="post" action="${esc(opts.action)}">
${hidden({ ...authorizeParams(request), _csrf: csrf, step: 'mfa', session: opts.session })}
<label for="code">${opts.email ? 'Code from the email we sent you' : 'Code from your authenticator app'}</label><input id="code" name="code" autocomplete="one-time-code" maxlength="24" required autofocus aria-describedby="code-hint"${error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="code-hint">Lost your phone? Enter one of your recovery codes instead.</p>
<button type="submit">Continue</button></form>`,
  );
}

/** MFA_SETUP on the hosted page: the key as a QR code (inline SVG) and as text, then a first code. */
export function mfaSetupPage(opts: {
  request: TAuthorizeRequest;
  csrf: string;
  action: string;
  session: string;
  secret: string;
  qrSvg: string;
  error?: string;
}): string {
  const { request, csrf, error } = opts;
  return layout(
    'Set up two-step sign-in',
    `${alert(error)}<p>Your firm requires an authenticator app to sign in. Scan this code with the app, or enter the key by hand.</p>
<figure class="qr">${opts.qrSvg}</figure>
<p>Key: <code id="secret" class="secret">${esc(opts.secret)}</code></p>
<form method="post" action="${esc(opts.action)}">
${hidden({ ...authorizeParams(request), _csrf: csrf, step: 'mfa_setup', session: opts.session })}
<label for="code">Code from your authenticator app</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus${describedBy(error)}>
<button type="submit">Turn on</button></form>`,
  );
}

/** The ten recovery codes, shown once, before the sign-in goes on to the app. */
export function recoveryCodesPage(opts: {
  request: TAuthorizeRequest;
  csrf: string;
  action: string;
  session: string;
  codes: string[];
}): string {
  const { request, csrf } = opts;
  return layout(
    'Save your recovery codes',
    `<p>Each code signs you in once if you lose your phone. Keep them somewhere safe: they are not shown again.</p>
<ul class="codes" aria-label="Recovery codes">${opts.codes.map((c) => `<li><code>${esc(c)}</code></li>`).join('')}</ul>
<form method="post" action="${esc(opts.action)}">
${hidden({ ...authorizeParams(request), _csrf: csrf, step: 'mfa_done', session: opts.session })}
<button type="submit">I saved them, continue</button></form>`,
  );
}

export function messagePage(title: string, text: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    `<p role="alert">${esc(text)}</p>${link ? `<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>` : ''}`,
  );
}
