// Real image files for tests: a PNG encoder (any size, optionally incompressible) and tiny
// genuine GIF, JPEG and WebP files.
import { deflateSync } from "node:zlib";
import { randomBytes } from "node:crypto";

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGB PNG of the given size; `noise` fills it with random pixels (so it does not compress). */
export function png(width: number, height: number, noise = false): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = 1 + width * 3;
  const raw = noise ? randomBytes(row * height) : Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) raw[y * row] = 0; // filter: none
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: noise ? 0 : 6 })), chunk("IEND", Buffer.alloc(0))]);
}

/** 1×1 GIF89a. */
export const GIF_1x1 = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");
/** A 16×8 grey baseline JPEG: JFIF header, one quantisation table, one-symbol Huffman tables. */
export const JPEG_16x8 = Buffer.from(
  [
    "ffd8", // SOI
    "ffe000104a46494600010100000100010000", // APP0 JFIF
    "ffdb004300" + "01".repeat(64), // DQT
    "ffc0000b080008001001011100", // SOF0: 8 bits, 8 high, 16 wide, 1 component
    "ffc400140001" + "00".repeat(15) + "00", // DHT DC: one code for category 0
    "ffc400141001" + "00".repeat(15) + "00", // DHT AC: one code for end-of-block
    "ffda000801010000003f00", // SOS
    "0f", // two blocks: DC 0 + EOB each, padded with ones
    "ffd9", // EOI
  ].join(""),
  "hex",
);
/** 1×1 lossless WebP. */
export const WEBP_1x1 = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
