/** A deterministic pseudo-random sequence, so two runs build the same firm. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A PostgreSQL array literal passed as one text parameter (both drivers send it as-is). */
export function arr(values: string[]) {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
