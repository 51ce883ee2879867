// Writes the protocol's JSON Schema, generated from the core's zod schemas (src/protocol/schema.ts),
// to test-fixtures/protocol/schema/wave-protocol.schema.json. Run after changing a params, result
// or notification schema: `npm run protocol:schema` (test/protocolSchema.test.ts fails until then).
//
//   node scripts/protocol-schema.mjs           write the file
//   node scripts/protocol-schema.mjs --check   exit 1 when the committed file is out of date
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_FILE = join(root, "..", "test-fixtures", "protocol", "schema", "wave-protocol.schema.json");

// Bundled beside the sources (not in /tmp) so that zod resolves from node_modules as the core's does.
const tmp = mkdtempSync(join(root, ".protocol-schema-"));
try {
  const out = join(tmp, "schema.mjs");
  await build({ entryPoints: [join(root, "src", "protocol", "schema.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: out, logLevel: "error" });
  const { protocolJsonSchemaText } = await import(pathToFileURL(out).href);
  const text = protocolJsonSchemaText();
  if (process.argv.includes("--check")) {
    let committed = "";
    try {
      committed = readFileSync(SCHEMA_FILE, "utf8");
    } catch {}
    if (committed !== text) {
      console.error(`${SCHEMA_FILE} is out of date: run \`npm run protocol:schema\` and commit it.`);
      process.exitCode = 1;
    }
  } else {
    writeFileSync(SCHEMA_FILE, text);
    console.log(`wrote ${SCHEMA_FILE}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
