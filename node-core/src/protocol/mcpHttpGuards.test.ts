import { describe, expect, it } from "vitest";
import { allowedHostHeaders, bearerMatches, hostHeaderAllowed, isLoopbackAddress, originAllowed, parseListenAddress } from "./mcpHttpGuards.js";

describe("--listen address", () => {
  it("defaults the host to 127.0.0.1 and accepts loopback addresses only", () => {
    expect(parseListenAddress("0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseListenAddress("127.0.0.1:8123")).toEqual({ host: "127.0.0.1", port: 8123 });
    expect(parseListenAddress("localhost:0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseListenAddress("[::1]:0")).toEqual({ host: "::1", port: 0 });
    expect(parseListenAddress("127.1.2.3:0")).toEqual({ host: "127.1.2.3", port: 0 });
  });

  it("refuses every address other machines could reach, saying what to use", () => {
    for (const value of ["0.0.0.0:0", "[::]:0", "192.168.1.5:80", "10.0.0.1:0", "example.com:0", "[::ffff:10.0.0.1]:0", "127.0.0.1.nip.io:0"]) {
      expect(() => parseListenAddress(value), value).toThrow(/only listens on a loopback address.*Use --listen 127\.0\.0\.1:/);
    }
    expect(() => parseListenAddress("::1:0")).toThrow(/brackets/);
    expect(() => parseListenAddress("127.0.0.1:http")).toThrow(/port must be a number/);
    expect(() => parseListenAddress("127.0.0.1:70000")).toThrow(/port must be a number/);
  });

  it("knows loopback addresses by value, not by name", () => {
    expect(isLoopbackAddress("127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("[::1]")).toBe(true);
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("localhost")).toBe(false);
    expect(isLoopbackAddress("128.0.0.1")).toBe(false);
  });
});

describe("request guards", () => {
  it("Host: only our address and port (DNS rebinding sends the attacker's name)", () => {
    const allowed = allowedHostHeaders("127.0.0.1", 4711);
    expect(hostHeaderAllowed("127.0.0.1:4711", allowed)).toBe(true);
    expect(hostHeaderAllowed("LOCALHOST:4711", allowed)).toBe(true);
    expect(hostHeaderAllowed("evil.example:4711", allowed)).toBe(false);
    expect(hostHeaderAllowed("127.0.0.1:4712", allowed)).toBe(false);
    expect(hostHeaderAllowed("127.0.0.1", allowed)).toBe(false);
    expect(hostHeaderAllowed(undefined, allowed)).toBe(false);
    expect(hostHeaderAllowed("[::1]:4711", allowedHostHeaders("::1", 4711))).toBe(true);
  });

  it("Origin: absent (not a browser) or a loopback page; anything else is refused", () => {
    expect(originAllowed(undefined)).toBe(true);
    expect(originAllowed("http://127.0.0.1:3000")).toBe(true);
    expect(originAllowed("http://localhost")).toBe(true);
    expect(originAllowed("https://[::1]:8443")).toBe(true);
    for (const origin of ["https://evil.example", "null", "file://", "http://127.0.0.1.evil.example", "chrome-extension://abc", "http://localhost.evil.example", ""]) {
      expect(originAllowed(origin), origin).toBe(false);
    }
  });

  it("bearer token: exact match only", () => {
    const token = "a".repeat(64);
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token.slice(1)}`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Basic ${token}`, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches("Bearer ", token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    // An empty expected token never authorizes anything.
    expect(bearerMatches("Bearer ", "")).toBe(false);
  });
});
