// What every request to the loopback MCP endpoint must pass before anything reads its body: the
// Host header names our own address (DNS rebinding), an Origin, when present, is a loopback page,
// and the bearer token matches. Pure functions; mcpHttp.ts applies them in that order.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/** True for 127.0.0.0/8, ::1 and the IPv4-mapped forms of 127.x; names are never trusted here. */
export function isLoopbackAddress(host: string): boolean {
  const h = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const kind = isIP(h);
  if (kind === 4) return h.split(".")[0] === "127";
  if (kind === 6) {
    const lower = h.toLowerCase();
    if (lower === "::1" || lower === "0:0:0:0:0:0:0:1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped !== null && isLoopbackAddress(mapped[1]!);
  }
  return false;
}

/**
 * Parses `--listen [HOST:]PORT`. HOST must be a loopback address (or `localhost`, which binds
 * 127.0.0.1); anything else is refused with what to use instead.
 */
export function parseListenAddress(value: string): { host: string; port: number } {
  const text = value.trim();
  let host = "127.0.0.1";
  let portText = text;
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2]!;
  } else if (text.includes(":")) {
    const at = text.lastIndexOf(":");
    host = text.slice(0, at);
    portText = text.slice(at + 1);
    if (host.includes(":")) throw new Error(`--listen ${value}: write an IPv6 address in brackets, e.g. [::1]:0.`);
  }
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new Error(`--listen ${value}: the port must be a number from 0 to 65535 (0 picks a free one), e.g. --listen 127.0.0.1:0.`);
  }
  if (host === "localhost") host = "127.0.0.1";
  if (!isLoopbackAddress(host)) {
    throw new Error(`--listen ${value}: the MCP endpoint only listens on a loopback address (127.0.0.1 or [::1]); ${host} would let other machines reach it. Use --listen 127.0.0.1:${portText}.`);
  }
  return { host, port: Number(portText) };
}

/** The Host header values that name this endpoint: the bound address, `localhost`, with our port. */
export function allowedHostHeaders(boundHost: string, port: number): Set<string> {
  const names = new Set<string>([`localhost:${port}`]);
  names.add(boundHost.includes(":") ? `[${boundHost.toLowerCase()}]:${port}` : `${boundHost}:${port}`);
  return names;
}

export function hostHeaderAllowed(header: string | undefined, allowed: Set<string>): boolean {
  return header !== undefined && allowed.has(header.toLowerCase());
}

/** An absent Origin is a non-browser client; a present one must be a page served from loopback. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) and junk
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return url.hostname === "localhost" || isLoopbackAddress(url.hostname);
}

/**
 * Compares `Authorization: Bearer <token>` with the expected token in constant time. Both sides
 * are hashed first, so neither the length nor any prefix of the token leaks through timing.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = header === undefined ? "" : (/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? "");
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}
