/**
 * A secret with one character changed, for tests that a forged link is refused. Changes the
 * first character: replacing the last with a fixed letter leaves the secret as it was whenever
 * it already ended in that letter (1 in 64 for base64url, which failed CI), and in base64 the
 * last character's low bits may be padding that decodes to the same bytes.
 */
export const tampered = (secret: string) => `${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
