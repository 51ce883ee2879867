// Jupyter notebooks as a model reads them (FS-READ-7): every cell in order with its type and
// source, then its outputs: stream and text results as text, errors with their traceback (ANSI
// colours removed), and image outputs as images.
import type { ImageMime } from "./sniff.js";

export interface NotebookImage {
  data: string;
  mimeType: ImageMime;
  cell: number;
}

export interface RenderedNotebook {
  text: string;
  images: NotebookImage[];
  cellCount: number;
  language?: string;
  nbformat?: string;
}

export class NotebookError extends Error {}

/** Text of one output longer than this is cut (outputs can be megabytes of logs). */
const MAX_OUTPUT_CHARS = 20_000;
const IMAGE_MIMES: ImageMime[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

function joinSource(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.filter((x) => typeof x === "string").join("");
  return "";
}

function cutOutput(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  return `${text.slice(0, MAX_OUTPUT_CHARS)}\n[... output cut: ${text.length - MAX_OUTPUT_CHARS} more characters]`;
}

interface RawOutput {
  output_type?: string;
  name?: string;
  text?: unknown;
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: unknown;
}

interface RawCell {
  cell_type?: string;
  id?: string;
  source?: unknown;
  input?: unknown;
  outputs?: RawOutput[];
  execution_count?: number | null;
  prompt_number?: number | null;
}

function renderOutput(out: RawOutput, cellNo: number, images: NotebookImage[]): string {
  const kind = out.output_type ?? "unknown";
  if (kind === "stream") {
    return `<output type="stream" name="${out.name ?? "stdout"}">\n${cutOutput(joinSource(out.text)).replace(ANSI, "")}\n</output>`;
  }
  if (kind === "error" || kind === "pyerr") {
    const tb = Array.isArray(out.traceback) ? out.traceback.filter((l) => typeof l === "string").join("\n") : "";
    const body = `${out.ename ?? "Error"}: ${out.evalue ?? ""}${tb ? "\n" + tb : ""}`.replace(ANSI, "");
    return `<output type="error">\n${cutOutput(body)}\n</output>`;
  }
  const data = out.data ?? (out as Record<string, unknown>);
  const parts: string[] = [];
  for (const mime of IMAGE_MIMES) {
    const raw = data[mime];
    if (typeof raw === "string" || Array.isArray(raw)) {
      images.push({ data: joinSource(raw).replace(/\s+/g, ""), mimeType: mime, cell: cellNo });
      parts.push(`<output type="${kind}" mime="${mime}">[image ${images.length} attached below]</output>`);
      break;
    }
  }
  const textual = data["text/plain"] ?? data["text/markdown"] ?? data.text;
  if (textual !== undefined) parts.push(`<output type="${kind}">\n${cutOutput(joinSource(textual)).replace(ANSI, "")}\n</output>`);
  if (parts.length === 0) {
    const mimes = Object.keys(data).filter((k) => k.includes("/"));
    parts.push(`<output type="${kind}">[no text representation; available: ${mimes.join(", ") || "none"}]</output>`);
  }
  return parts.join("\n");
}

/** Renders notebook JSON. Throws NotebookError with a message the model can act on. */
export function renderNotebook(json: string): RenderedNotebook {
  let nb: Record<string, unknown>;
  try {
    nb = JSON.parse(json) as Record<string, unknown>;
  } catch (err) {
    throw new NotebookError(`it is not valid JSON (${(err as Error).message})`);
  }
  if (nb === null || typeof nb !== "object" || Array.isArray(nb)) throw new NotebookError("its JSON is not an object");
  let cells: RawCell[] | undefined;
  if (Array.isArray(nb.cells)) cells = nb.cells as RawCell[];
  else if (Array.isArray(nb.worksheets)) {
    // nbformat 3: cells live in worksheets.
    cells = (nb.worksheets as Array<{ cells?: RawCell[] }>).flatMap((w) => (Array.isArray(w?.cells) ? w.cells : []));
  }
  if (!cells) throw new NotebookError('it has no "cells" array (is it really a Jupyter notebook?)');
  const metadata = (nb.metadata ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const language = (metadata.language_info?.name ?? metadata.kernelspec?.language) as string | undefined;
  const nbformat = nb.nbformat !== undefined ? `${nb.nbformat}${nb.nbformat_minor !== undefined ? "." + nb.nbformat_minor : ""}` : undefined;
  const images: NotebookImage[] = [];
  const blocks: string[] = [];
  cells.forEach((cell, i) => {
    const n = i + 1;
    const type = cell.cell_type ?? "unknown";
    const attrs = [`${n}`, `type="${type}"`];
    if (cell.id) attrs.push(`id="${cell.id}"`);
    const count = cell.execution_count ?? cell.prompt_number;
    if (typeof count === "number") attrs.push(`execution_count=${count}`);
    const source = joinSource(cell.source ?? cell.input);
    const outputs = Array.isArray(cell.outputs) ? cell.outputs.map((o) => renderOutput(o ?? {}, n, images)) : [];
    blocks.push([`<cell ${attrs.join(" ")}>`, source, `</cell>`, ...outputs].join("\n"));
  });
  const header = `Jupyter notebook: ${cells.length} cell${cells.length === 1 ? "" : "s"}${language ? `, ${language}` : ""}${nbformat ? `, nbformat ${nbformat}` : ""}`;
  return { text: [header, ...blocks].join("\n\n"), images, cellCount: cells.length, language, nbformat };
}
