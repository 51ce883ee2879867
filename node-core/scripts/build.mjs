// Bundles the core into one CommonJS file that runs on Node.js >= 18 with nothing beside it.
import { build } from "esbuild";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const outfile = join(root, "dist", "wave-core.js");
mkdirSync(dirname(outfile), { recursive: true });

// zod re-exports every message locale (`z.locales.*`); the core only ever uses English, which zod
// installs itself. Resolving the locale index to English alone keeps ~150 KB out of start-up.
const englishOnlyZodLocales = {
  name: "english-only-zod-locales",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(root, "scripts", "zod-locales-en.mjs") } : undefined,
    );
  },
};

const result = await build({
  entryPoints: [join(root, "src", "cli.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node18",
  // Whitespace and syntax only: identifiers stay readable in stack traces.
  minifySyntax: true,
  minifyWhitespace: true,
  plugins: [englishOnlyZodLocales],
  sourcemap: false,
  legalComments: "none",
  metafile: true,
  banner: { js: "#!/usr/bin/env node" },
  define: { __WAVE_CORE_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
});
if (process.argv.includes("--analyze")) {
  const { analyzeMetafile } = await import("esbuild");
  console.log(await analyzeMetafile(result.metafile));
}
writeFileSync(join(root, "dist", "meta.json"), JSON.stringify(result.metafile));
