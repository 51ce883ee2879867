// The legacy-encoding libraries (iconv-lite, chardet) load on first need (most text is UTF-8):
// they cost start-up time and memory in every core otherwise. The file tools (fs/textCodec) and
// the Windows console decoder (shell/consoleText) share this one loader.

type Iconv = typeof import("iconv-lite");
type Chardet = typeof import("chardet");

let iconvLib: Iconv | undefined;
let chardetLib: Chardet | undefined;

/** Loads iconv-lite and chardet; every non-UTF-8 path awaits this before decoding. */
export async function loadCodecs(): Promise<void> {
  // Both are CommonJS: the module object is `default` under ESM interop.
  const unwrap = <T>(mod: T): T => (mod as { default?: T }).default ?? mod;
  iconvLib ??= unwrap((await import("iconv-lite")) as unknown as Iconv);
  chardetLib ??= unwrap((await import("chardet")) as unknown as Chardet);
}

/** iconv-lite, which a caller must have loaded (loadCodecs) before a non-UTF-8 path. */
export function iconv(): Iconv {
  if (!iconvLib) throw new Error("internal: iconv-lite used before loadCodecs()");
  return iconvLib;
}

/** chardet, which a caller must have loaded (loadCodecs) before guessing an encoding. */
export function chardet(): Chardet {
  if (!chardetLib) throw new Error("internal: chardet used before loadCodecs()");
  return chardetLib;
}
