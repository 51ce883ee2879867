// Answers that never change (tools/list) are serialised once: a burst of them costs a splice each,
// not a JSON.stringify of the whole tool list (tens of kilobytes), and every copy of the text
// shares the one string until it is written out.
const texts = new WeakMap<object, string>();

/** Marks `value` as never changing from now on: its JSON is made once, here. Returns it. */
export function serializeOnce<T extends object>(value: T): T {
  if (!texts.has(value)) texts.set(value, JSON.stringify(value));
  return value;
}

/** A JSON-RPC message as JSON text; an answer whose result went through serializeOnce() reuses its text. */
export function messageJson(message: object): string {
  const m = message as { jsonrpc?: unknown; id?: unknown; result?: unknown };
  const text = m.result !== null && typeof m.result === "object" ? texts.get(m.result) : undefined;
  if (text === undefined || m.jsonrpc !== "2.0" || Object.keys(m).length !== 3) return JSON.stringify(message);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${text}}`;
}
