// How a text file is encoded, so Edit and Write put back exactly what they found: the byte-order
// mark, the encoding (UTF-8, UTF-16 LE/BE, or a legacy one such as GB18030 or windows-1252), and
// the line endings. Anything that would not survive a decode/encode round trip is refused rather
// than corrupted.
import * as buffer from "node:buffer";
import { chardet, iconv, loadCodecs } from "../util/codecs.js";
import { utf8Text } from "../util/text.js";

export type LineEndingStyle = "LF" | "CRLF" | "mixed" | "none";

export interface TextFormat {
  /** `utf-8`, `utf-16le`, `utf-16be`, or an iconv-lite encoding name in lower case. */
  encoding: string;
  bom: boolean;
}

export interface DecodedText {
  text: string;
  format: TextFormat;
  /** False when encoding the decoded text again would not give back the same bytes. */
  roundTrips: boolean;
}

const BOMS: Array<{ bytes: number[]; encoding: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be" },
];

export const UTF8: TextFormat = { encoding: "utf-8", bom: false };

export function detectBom(buf: Uint8Array): { encoding: string; length: number } | undefined {
  for (const b of BOMS) {
    if (buf.length >= b.bytes.length && b.bytes.every((v, i) => buf[i] === v)) return { encoding: b.encoding, length: b.bytes.length };
  }
  return undefined;
}

const utf8Fatal = new TextDecoder("utf-8", { fatal: true });

function isValidUtf8(buf: Uint8Array): boolean {
  const native = (buffer as { isUtf8?: (b: Uint8Array) => boolean }).isUtf8;
  if (native) return native(buf);
  try {
    utf8Fatal.decode(buf);
    return true;
  } catch {
    return false;
  }
}

/** Decodes bytes without a BOM in `encoding`. */
export function decodeAs(buf: Uint8Array, encoding: string): string {
  if (encoding === "utf-8") return utf8Text(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
  if (encoding === "latin1") return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("latin1");
  return iconv().decode(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength), encoding, { stripBOM: false });
}

function encodeAs(text: string, encoding: string): Buffer {
  if (encoding === "utf-8") return Buffer.from(text, "utf8");
  if (encoding === "latin1" && !/[^\u0000-\u00ff]/.test(text)) return Buffer.from(text, "latin1");
  return iconv().encode(text, encoding, { addBOM: false });
}

function bomBytes(encoding: string): number[] {
  return BOMS.find((b) => b.encoding === encoding)?.bytes ?? [];
}

/** Encodes `text` the way the file was: same encoding, same BOM. */
export function encodeText(text: string, format: TextFormat): Buffer {
  const body = encodeAs(text, format.encoding);
  if (!format.bom) return body;
  return Buffer.concat([Buffer.from(bomBytes(format.encoding)), body]);
}

/** True when `text` can be written in `format` and read back unchanged. */
export function canEncode(text: string, format: TextFormat): boolean {
  if (format.encoding === "utf-8" || format.encoding.startsWith("utf-16")) {
    return (text as string & { isWellFormed?: () => boolean }).isWellFormed?.() ?? true;
  }
  if (format.encoding === "latin1") return !/[^\u0000-\u00ff]/.test(text);
  return decodeAs(encodeAs(text, format.encoding), format.encoding) === text;
}

/** Legacy encodings chardet may name, mapped to iconv-lite names that can encode them back. */
function legacyCandidate(buf: Uint8Array): string | undefined {
  let matches: Array<{ name: string; confidence: number }> = [];
  try {
    matches = chardet().analyse(buf.length > 65536 ? buf.subarray(0, 65536) : buf);
  } catch {
    return undefined;
  }
  for (const m of matches) {
    const name = m.name.toLowerCase();
    if (name.startsWith("utf") || name.startsWith("iso-2022")) continue;
    if (iconv().encodingExists(name)) return name;
  }
  return undefined;
}

/**
 * Decodes a whole file: BOM first, then UTF-8 if the bytes are valid UTF-8, then the legacy
 * encoding chardet suggests if it round-trips, else latin1 (which always round-trips bytes).
 */
export async function decodeText(buf: Uint8Array): Promise<DecodedText> {
  const bom = detectBom(buf);
  if ((bom && bom.encoding !== "utf-8") || (!bom && !isValidUtf8(buf))) await loadCodecs();
  if (bom) {
    const body = buf.subarray(bom.length);
    const format = { encoding: bom.encoding, bom: true };
    const text = decodeAs(body, bom.encoding);
    return { text, format, roundTrips: bom.encoding === "utf-8" ? isValidUtf8(body) : encodeAs(text, bom.encoding).equals(body) };
  }
  if (isValidUtf8(buf)) return { text: decodeAs(buf, "utf-8"), format: UTF8, roundTrips: true };
  const candidate = legacyCandidate(buf);
  if (candidate) {
    const text = decodeAs(buf, candidate);
    if (encodeAs(text, candidate).equals(buf)) return { text, format: { encoding: candidate, bom: false }, roundTrips: true };
  }
  return { text: decodeAs(buf, "latin1"), format: { encoding: "latin1", bom: false }, roundTrips: true };
}

/**
 * What a change needs to know about a file's text before writing: its format, whether that format
 * reads the bytes back exactly, its line-ending style, and the text itself on demand. UTF-8 (with
 * or without a BOM) is recognised on the bytes: in valid UTF-8, bytes 13 and 10 are CR and LF and
 * nothing else, so the style is found natively and the decoding waits until the text is wanted.
 */
export interface TextShape {
  format: TextFormat;
  roundTrips: boolean;
  lineEnding: LineEndingStyle;
  text(): string;
}

export async function textShape(buf: Uint8Array): Promise<TextShape> {
  const bom = detectBom(buf);
  if (!bom || bom.encoding === "utf-8") {
    const body = bom ? buf.subarray(bom.length) : buf;
    if (isValidUtf8(body)) {
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      let text: string | undefined;
      return {
        format: bom ? { encoding: "utf-8", bom: true } : UTF8,
        roundTrips: true,
        lineEnding: bytesLineEndingStyle(bytes),
        text: () => (text ??= decodeAs(body, "utf-8")),
      };
    }
  }
  const decoded = await decodeText(buf);
  return { format: decoded.format, roundTrips: decoded.roundTrips, lineEnding: lineEndingStyle(decoded.text), text: () => decoded.text };
}

/** lineEndingStyle for bytes of an ASCII-compatible encoding, searched natively. */
function bytesLineEndingStyle(bytes: Buffer): LineEndingStyle {
  if (!bytes.includes(CRLF_BYTES)) return bytes.includes(LF) ? "LF" : "none";
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) {
    if (i === 0 || bytes[i - 1] !== 13) return "mixed";
  }
  return "CRLF";
}

const LF = 10;
const CRLF_BYTES = Buffer.from("\r\n");

/** The encoding to show a file in, guessed from its first bytes (for windows of large files). */
export async function sniffFormat(head: Uint8Array, complete: boolean): Promise<TextFormat> {
  const bom = detectBom(head);
  if (bom) {
    if (bom.encoding !== "utf-8") await loadCodecs();
    return { encoding: bom.encoding, bom: true };
  }
  // A sample may end inside a multi-byte character: drop such a tail before validating.
  if (isValidUtf8(complete ? head : trimPartialUtf8(head))) return UTF8;
  return (await decodeText(head)).format;
}

function trimPartialUtf8(buf: Uint8Array): Uint8Array {
  const end = buf.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = buf[end - i]!;
    if ((b & 0xc0) === 0xc0) return buf.subarray(0, end - i); // a lead byte whose tail was cut
    if ((b & 0xc0) !== 0x80) break;
  }
  return buf;
}

export function describeFormat(format: TextFormat): string {
  return format.bom ? `${format.encoding} with BOM` : format.encoding;
}

export interface LineEndings {
  crlf: number;
  lf: number;
  style: LineEndingStyle;
  /** The ending new lines get where nothing nearer decides: the majority, LF on a tie. */
  dominant: "\n" | "\r\n";
}

export function detectLineEndings(text: string): LineEndings {
  let crlf = 0;
  let lf = 0;
  let i = text.indexOf("\n");
  while (i !== -1) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
    i = text.indexOf("\n", i + 1);
  }
  const style: LineEndingStyle = crlf > 0 && lf > 0 ? "mixed" : crlf > 0 ? "CRLF" : lf > 0 ? "LF" : "none";
  return { crlf, lf, style, dominant: crlf > lf ? "\r\n" : "\n" };
}

/**
 * The line-ending style: native searches for LF-only and ending-less texts (a regex lookbehind
 * costs a millisecond per 2 MB); only a text with CRLF walks its newlines, looking for a bare LF.
 */
export function lineEndingStyle(text: string): LineEndingStyle {
  if (!text.includes("\r\n")) return text.includes("\n") ? "LF" : "none";
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i === 0 || text.charCodeAt(i - 1) !== 13) return "mixed";
  }
  return "CRLF";
}
