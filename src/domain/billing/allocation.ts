// How money received (or a client's credit) is spread over the client's open invoices, as the
// payment and credit dialogs suggest it. The server checks every allocation again; this is the rule
// a person sees filled in, and may change invoice by invoice.

export type TOpenBalance = { id: string; balance: number };

/**
 * `available` spread over `invoices` in the order given (the server lists them oldest due first),
 * each taking no more than its balance; `first` (the invoice a payment was recorded from) is settled
 * before the others. One amount per invoice, in the order given, zero where nothing reaches it.
 */
export function autoAllocate(invoices: readonly TOpenBalance[], available: number, first?: string): number[] {
  const amounts = invoices.map(() => 0);
  let left = Math.max(0, Math.floor(available));
  const order = invoices.map((_, i) => i);
  const head = first ? invoices.findIndex((i) => i.id === first) : -1;
  if (head > 0) order.unshift(...order.splice(head, 1));
  for (const i of order) {
    if (left <= 0) break;
    const take = Math.min(left, Math.max(0, invoices[i]?.balance ?? 0));
    amounts[i] = take;
    left -= take;
  }
  return amounts;
}

/** What a set of allocations comes to against what there is to allocate: the rest is credit. */
export function allocationSummary(available: number, amounts: readonly number[]) {
  const allocated = amounts.reduce((s, a) => s + a, 0);
  return { allocated, left: available - allocated, over: allocated > available };
}
