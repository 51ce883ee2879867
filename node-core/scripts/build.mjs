// Bundles the core into one CommonJS file that runs on Node.js >= 18 with nothing beside it.
import { build } from "esbuild";
import { createHash } from "node:crypto";
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
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(root, "scripts", "zod-locales-en.mjs") } : undefined));
  },
};

// Libraries the core reaches only through a dynamic import() on first need: the shell parser and
// glob matcher (permission checks), the legacy encodings (iconv-lite's tables, chardet: non-UTF-8
// files only), jsdiff (the first edit) and image-size (the first image Read). esbuild would put
// them in the bundle as code V8 has to scan at every start (~1 ms per 100 KB; iconv-lite alone is
// ~500 KB); embedded as strings they cost nothing until first use compiles them. Each must be
// self-contained (no package the core also imports, or there would be two copies).
const LAZY_LIBRARIES = ["unbash", "picomatch", "iconv-lite", "chardet", "diff", "image-size"];
async function lazyLibrarySource(name) {
  const out = await build({
    entryPoints: [name],
    absWorkingDir: root,
    bundle: true,
    write: false,
    platform: "node",
    format: "cjs",
    target: "node18",
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: "none",
    logLevel: "warning",
  });
  return out.outputFiles[0].text;
}
const lazySources = Object.fromEntries(await Promise.all(LAZY_LIBRARIES.map(async (n) => [n, await lazyLibrarySource(n)])));
const lazyLibraries = {
  name: "lazy-libraries",
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${LAZY_LIBRARIES.map((n) => n.replace(/[-/]/g, "\\$&")).join("|")})$`) }, (args) => ({ path: args.path, namespace: "lazy-library" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-library" }, (args) => ({
      loader: "js",
      contents: `const m = { exports: {} };\nnew Function("module", "exports", "require", ${JSON.stringify(lazySources[args.path])})(m, m.exports, require);\nmodule.exports = m.exports;\n`,
    }));
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
  plugins: [englishOnlyZodLocales, lazyLibraries],
  sourcemap: false,
  legalComments: "none",
  metafile: true,
  // The loader below is what lands in outfile: esbuild hands the bundle over in memory.
  write: false,
  define: { __WAVE_CORE_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
});
if (process.argv.includes("--analyze")) {
  const { analyzeMetafile } = await import("esbuild");
  console.log(await analyzeMetafile(result.metafile));
}
writeFileSync(join(root, "dist", "meta.json"), JSON.stringify(result.metafile));

// The file Node.js runs: a small loader (scripts/compileCache.cjs) with the core's code after it in
// a comment, compiled through V8's code cache (start-up spends most of its time compiling ~2 MB).
// Inside the comment "*/" is stored as "*\0/", which the loader turns back; the code has no NUL
// of its own (esbuild writes ASCII only, with escapes).
const code = result.outputFiles[0].text;
if (code.includes("\0")) throw new Error("the bundle contains a NUL character; the compile-cache loader cannot carry it");
const loader = readFileSync(join(root, "scripts", "compileCache.cjs"), "utf8").replace("__CODE_HASH__", createHash("sha256").update(code).digest("hex").slice(0, 16));
writeFileSync(outfile, `#!/usr/bin/env node\n${loader}/*\0WAVE-CORE-CODE\n${code.replace(/\*\//g, "*\0/")}\n*/\n`);
