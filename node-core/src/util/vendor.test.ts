import path from "node:path";
import { describe, expect, it } from "vitest";
import { platformTags, vendorCandidates } from "./vendor.js";

describe("vendor folders per platform", () => {
  it("each platform looks in its own folder; Windows on ARM also in win32-x64, macOS on ARM never in x64", () => {
    expect(platformTags("linux", "x64")).toEqual(["linux-x64"]);
    expect(platformTags("linux", "arm64")).toEqual(["linux-arm64"]);
    expect(platformTags("darwin", "arm64")).toEqual(["darwin-arm64"]);
    expect(platformTags("win32", "x64")).toEqual(["win32-x64"]);
    expect(platformTags("win32", "arm64")).toEqual(["win32-arm64", "win32-x64"]);
  });

  it("candidates: every root, own folder first, .exe on Windows", () => {
    expect(vendorCandidates("rg", ["/a", "/b"], "win32", "arm64")).toEqual([
      path.join("/a", "win32-arm64", "rg.exe"),
      path.join("/a", "win32-x64", "rg.exe"),
      path.join("/b", "win32-arm64", "rg.exe"),
      path.join("/b", "win32-x64", "rg.exe"),
    ]);
    expect(vendorCandidates("bfs", ["/v"], "darwin", "x64")).toEqual([path.join("/v", "darwin-x64", "bfs")]);
  });
});
