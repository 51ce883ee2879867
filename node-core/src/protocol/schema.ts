// The host protocol as one JSON document of JSON Schemas (draft 2020-12), generated from the zod
// schemas the core validates and types its messages with: every request method's params (what the
// core accepts) and result (what it answers), the request the core sends the host, and the
// notifications both ways. Committed as test-fixtures/protocol/schema/wave-protocol.schema.json
// (`npm run protocol:schema` rewrites it; test/protocolSchema.test.ts fails when it is stale), and
// checked against the JetBrains plugin's readers (plugin-kotlin ProtocolSchemaTest).
import { z } from "zod";
import { coreEventSchemas } from "../base/events.js";
import { hostMethods } from "./methods/index.js";
import { PROTOCOL_VERSION } from "./version.js";
import { coreRequestSchemas, hostNotificationSchemas, initializeParamsSchema, initializeResultSchema, shutdownResultSchema } from "./wire.js";

export interface WireMethod {
  name: string;
  params: z.ZodType;
  result: z.ZodType;
}

/** Every request method a host may send, initialize and shutdown first. */
export function wireMethods(): WireMethod[] {
  return [
    { name: "initialize", params: initializeParamsSchema, result: initializeResultSchema },
    { name: "shutdown", params: z.object({}).passthrough().optional(), result: shutdownResultSchema },
    ...hostMethods.map((m) => ({ name: m.name, params: m.params, result: m.result })),
  ];
}

/** The notifications the core sends: its events, and `$/cancelRequest` for a question it stopped waiting for. */
export function coreNotifications(): Record<string, z.ZodType> {
  return { ...coreEventSchemas, "$/cancelRequest": z.strictObject({ id: z.union([z.string(), z.number()]) }) };
}

function render(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

const sorted = <T>(entries: [string, T][]): Record<string, T> => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The document: params rendered as what the core accepts (input), everything it sends as output. */
export function protocolJsonSchema(): Record<string, unknown> {
  return {
    $comment: "Generated from node-core's zod schemas by `npm run protocol:schema`; do not edit. Each params/result/notification value is a JSON Schema (draft 2020-12). See node-core/PROTOCOL.md.",
    protocolVersion: PROTOCOL_VERSION,
    methods: sorted(wireMethods().map((m) => [m.name, { params: render(m.params, "input"), result: render(m.result, "output") }])),
    coreRequests: sorted(Object.entries(coreRequestSchemas).map(([name, s]) => [name, { params: render(s.params, "output"), result: render(s.result, "input") }])),
    notifications: {
      coreToHost: sorted(Object.entries(coreNotifications()).map(([name, s]) => [name, render(s, "output")])),
      hostToCore: sorted(Object.entries(hostNotificationSchemas).map(([name, s]) => [name, render(s, "input")])),
    },
  };
}

/** The committed file's text: stable key order, two-space indent, final newline. */
export function protocolJsonSchemaText(): string {
  return `${JSON.stringify(protocolJsonSchema(), null, 2)}\n`;
}
