// Every message a core in a child process writes (CoreProcess) is checked against the protocol's
// schemas (src/protocol/schema.ts, the source of test-fixtures/protocol/schema/): a response
// against its method's result schema, a notification against its own, a request the core sends
// against its params schema. A field a schema does not name, a missing one, a wrong type or a
// notification with no schema fails the test that provoked it, so the published schema stays what
// the core really sends.
import type { z } from "zod";
import { coreNotifications, wireMethods } from "../../src/protocol/schema.js";
import { coreRequestSchemas } from "../../src/protocol/wire.js";

const results = new Map(wireMethods().map((m) => [m.name, m.result]));
const notifications = coreNotifications();

function issues(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  return r.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}${"keys" in i ? ` ${JSON.stringify(i.keys)}` : ""}`)
    .join("; ");
}

export interface WireMessage {
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/**
 * What is wrong with `msg` (a message the core wrote), or undefined. `methodOf` gives the method
 * of a request the test sent, by id, for its response.
 */
export function wireProblem(msg: WireMessage, methodOf: (id: string | number) => string | undefined): string | undefined {
  if (msg.method !== undefined) {
    if (msg.id !== undefined && msg.id !== null) {
      const req = coreRequestSchemas[msg.method as keyof typeof coreRequestSchemas];
      if (!req) return `the core sent a request "${msg.method}" that the protocol's schema does not have (src/protocol/wire.ts coreRequestSchemas)`;
      const p = issues(req.params, msg.params);
      return p && `${msg.method} request: params do not fit its schema: ${p}`;
    }
    const schema = notifications[msg.method];
    if (!schema) return `the core sent a notification "${msg.method}" that the protocol's schema does not have (base/events.ts coreEventSchemas)`;
    const p = issues(schema, msg.params);
    return p && `${msg.method} notification: params do not fit its schema: ${p}`;
  }
  if (msg.result === undefined || msg.id === undefined || msg.id === null) return undefined;
  const method = methodOf(msg.id);
  const schema = method === undefined ? undefined : results.get(method);
  if (!schema) return undefined; // a response to a raw line or to a method the core does not serve
  const p = issues(schema, msg.result);
  return p && `${method} result (id ${JSON.stringify(msg.id)}) does not fit its schema: ${p}`;
}

/** Throws when `msg` breaks the protocol's schema, with the message itself (cut) for the reader. */
export function assertOnWire(msg: WireMessage, methodOf: (id: string | number) => string | undefined): void {
  const problem = wireProblem(msg, methodOf);
  if (problem) throw new Error(`${problem}. Message: ${JSON.stringify(msg).slice(0, 1500)}`);
}
