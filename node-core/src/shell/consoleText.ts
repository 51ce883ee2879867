// Decodes what Windows console programs (taskkill, where, chcp) print: UTF-8 when the bytes are
// valid UTF-8, otherwise the console code page (GBK/cp936 on Chinese systems, cp437, ...).
import { iconv, loadCodecs } from "../util/codecs.js";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export async function decodeConsoleOutput(bytes: Buffer, codePage: number | undefined): Promise<string> {
  if (bytes.length === 0) return "";
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // not UTF-8: fall through to the code page
  }
  if (codePage === 65001) return bytes.toString("utf8");
  // Without a known code page, GBK is the likeliest non-UTF-8 console encoding we meet.
  await loadCodecs();
  const encoding = codePage !== undefined && iconv().encodingExists(`cp${codePage}`) ? `cp${codePage}` : "gbk";
  return iconv().decode(bytes, encoding);
}

/** The code page number in `chcp` output (`Active code page: 936`, `活动代码页: 936`). */
export function parseChcp(text: string): number | undefined {
  const m = /(\d{3,5})\s*$/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}
