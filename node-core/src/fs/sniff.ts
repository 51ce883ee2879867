// What kind of file this is, from its first bytes first and its extension second: an image a
// model can look at, a document or archive format Read refuses (with what to do instead), or text.
import path from "node:path";
import { detectBom } from "./textCodec.js";

export type ImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

function startsWith(buf: Uint8Array, bytes: number[], at = 0): boolean {
  if (buf.length < at + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

/** The image type a model can take, from magic bytes (never from the extension alone). */
export function sniffImage(head: Uint8Array): ImageMime | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "image/gif";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

export interface BinaryKind {
  /** Human name of the format, e.g. "PDF document". */
  name: string;
  /** What to do instead of reading it. */
  advice: string;
}

const ARCHIVE_ADVICE = "List or extract it with Bash (e.g. `unzip -l`, `tar -tf`) and read the extracted text files.";
const OFFICE_ADVICE = "Convert it to text first with Bash (e.g. `pandoc file.docx -t plain`, or `unzip -p file.docx word/document.xml`), then read the result.";
const PDF_ADVICE = "Extract its text with Bash (e.g. `pdftotext file.pdf -` from poppler-utils), then read or grep the result.";
const EXECUTABLE_ADVICE = "Inspect it with Bash tools such as `file`, `strings`, `objdump` or `xxd | head`.";
const MEDIA_ADVICE = "Inspect its metadata with Bash (e.g. `file`, `ffprobe`, `exiftool`).";
const IMAGE_CONVERT_ADVICE = "Convert it to PNG with Bash (e.g. `convert in.bmp out.png` from ImageMagick) and read the PNG.";
const DATABASE_ADVICE = "Query it with Bash (e.g. `sqlite3 file.db .schema`).";

const BY_EXTENSION: Record<string, BinaryKind> = {};
function ext(names: string[], kind: BinaryKind): void {
  for (const n of names) BY_EXTENSION[n] = kind;
}
ext([".pdf"], { name: "PDF document", advice: PDF_ADVICE });
ext([".doc", ".docx", ".odt", ".rtf", ".pages"], { name: "word-processor document", advice: OFFICE_ADVICE });
ext([".xls", ".xlsx", ".ods", ".numbers"], {
  name: "spreadsheet",
  advice: "Export it to CSV first (e.g. `libreoffice --headless --convert-to csv file.xlsx`, or `xlsx2csv`), then read the CSV.",
});
ext([".ppt", ".pptx", ".odp", ".key"], { name: "presentation", advice: OFFICE_ADVICE });
ext([".zip", ".jar", ".war", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".whl", ".nupkg", ".apk", ".dmg", ".iso"], {
  name: "archive",
  advice: ARCHIVE_ADVICE,
});
ext([".exe", ".dll", ".so", ".dylib", ".o", ".a", ".lib", ".obj", ".class", ".pyc", ".wasm", ".bin"], {
  name: "compiled binary",
  advice: EXECUTABLE_ADVICE,
});
ext([".mp3", ".wav", ".flac", ".ogg", ".m4a", ".aac", ".mp4", ".mov", ".avi", ".mkv", ".webm"], { name: "audio or video file", advice: MEDIA_ADVICE });
ext([".bmp", ".tif", ".tiff", ".ico", ".icns", ".heic", ".psd"], { name: "image in a format models cannot take", advice: IMAGE_CONVERT_ADVICE });
ext([".sqlite", ".sqlite3", ".db"], { name: "database file", advice: DATABASE_ADVICE });
ext([".woff", ".woff2", ".ttf", ".otf", ".eot"], { name: "font file", advice: EXECUTABLE_ADVICE });

/** A known binary format named by the extension (case-insensitive). */
export function binaryKindByExtension(file: string): BinaryKind | undefined {
  return BY_EXTENSION[path.extname(file).toLowerCase()];
}

/** A known binary format recognised by its magic bytes. */
export function binaryKindByContent(head: Uint8Array): BinaryKind | undefined {
  if (startsWith(head, ascii("%PDF-"))) return BY_EXTENSION[".pdf"];
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return { name: "ZIP archive (or a DOCX/XLSX/PPTX/JAR, which are ZIP files)", advice: `${ARCHIVE_ADVICE} ${OFFICE_ADVICE}` };
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { name: "legacy Office document", advice: OFFICE_ADVICE };
  if (startsWith(head, [0x1f, 0x8b])) return { name: "gzip archive", advice: "Decompress it with Bash (`zcat file | head`)." };
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) || startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) {
    return { name: "compressed archive", advice: ARCHIVE_ADVICE };
  }
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) || startsWith(head, ascii("Rar!"))) return { name: "archive", advice: ARCHIVE_ADVICE };
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return { name: "ELF executable or library", advice: EXECUTABLE_ADVICE };
  if (startsWith(head, [0xcf, 0xfa, 0xed, 0xfe]) || startsWith(head, [0xce, 0xfa, 0xed, 0xfe]) || startsWith(head, [0xca, 0xfe, 0xba, 0xbe])) {
    return { name: "Mach-O binary or Java class file", advice: EXECUTABLE_ADVICE };
  }
  if (startsWith(head, [0x00, 0x61, 0x73, 0x6d])) return { name: "WebAssembly module", advice: EXECUTABLE_ADVICE };
  if (startsWith(head, ascii("SQLite format 3"))) return BY_EXTENSION[".sqlite"];
  // Short signatures that plain text can also start with: only together with binary content.
  if (!looksBinary(head)) return undefined;
  if (startsWith(head, ascii("MZ"))) return { name: "Windows executable", advice: EXECUTABLE_ADVICE };
  if (startsWith(head, ascii("BZh"))) return { name: "compressed archive", advice: ARCHIVE_ADVICE };
  if (startsWith(head, ascii("BM"))) return BY_EXTENSION[".bmp"];
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return BY_EXTENSION[".tiff"];
  if (startsWith(head, ascii("ftyp"), 4)) return { name: "MP4/QuickTime/HEIC media file", advice: MEDIA_ADVICE };
  if (startsWith(head, ascii("ID3")) || startsWith(head, ascii("OggS")) || startsWith(head, ascii("fLaC"))) return BY_EXTENSION[".mp3"];
  return undefined;
}

/**
 * Text or not, from the first bytes: a UTF-16 BOM is text; otherwise a NUL byte, or more than
 * 10% control characters other than the usual whitespace, ESC and form feed, means binary.
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  const bom = detectBom(head);
  if (bom && bom.encoding !== "utf-8") return false;
  let suspicious = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b === 0) return true;
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27 && b !== 8) || b === 0x7f) suspicious++;
  }
  return suspicious / head.length > 0.1;
}

/** How many leading bytes the text/binary sniff looks at. */
export const SNIFF_BYTES = 1024;
