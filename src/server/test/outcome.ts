/**
 * What a procedure call came to, for tests that expect refusals. Takes a thunk as well as a
 * promise: a list of calls that are awaited one by one must be a list of thunks, or the ones
 * still waiting reject unobserved and vitest reports them as unhandled rejections.
 */
type TCall = Promise<unknown> | (() => Promise<unknown>);
type TFailure = { data?: { code?: string }; message?: string };

const settle = (call: TCall) => (typeof call === 'function' ? call() : call);

/** 'ok', or the tRPC error code ('NOT_FOUND', 'BAD_REQUEST', ...). */
export const codeOf = (call: TCall) =>
  settle(call).then(
    () => 'ok',
    (e: TFailure) => e.data?.code ?? String(e),
  );

/** 'ok', or 'CODE: message', for tests that check the message a person would read. */
export const codeAndMessageOf = (call: TCall) =>
  settle(call).then(
    () => 'ok',
    (e: TFailure) => `${e.data?.code ?? 'ERROR'}: ${e.message}`,
  );
