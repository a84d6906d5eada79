// The key of the emailed /auth/verify/{key} and /auth/resetpassword/{key} links: the user name and
// the code, as base64url JSON. Pure, so the web app decodes exactly what the server encoded.

export type TAuthLinkKey = { username: string; code: string };

const toBase64Url = (text: string): string => {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (key: string): string => {
  const base64 = key.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
};

export function encodeAuthLinkKey(value: TAuthLinkKey): string {
  return toBase64Url(JSON.stringify({ u: value.username, c: value.code }));
}

/** The user name and code in a link key, or null when the key is not one of ours. */
export function decodeAuthLinkKey(key: string): TAuthLinkKey | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(key)) return null;
  try {
    const parsed: unknown = JSON.parse(fromBase64Url(key));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { u, c } = parsed as { u?: unknown; c?: unknown };
    if (typeof u !== 'string' || typeof c !== 'string' || u === '' || c === '') return null;
    return { username: u, code: c };
  } catch {
    return null;
  }
}

export function verifyLink(publicUrl: string, value: TAuthLinkKey): string {
  return `${publicUrl}/auth/verify/${encodeAuthLinkKey(value)}`;
}

export function resetPasswordLink(publicUrl: string, value: TAuthLinkKey): string {
  return `${publicUrl}/auth/resetpassword/${encodeAuthLinkKey(value)}`;
}
