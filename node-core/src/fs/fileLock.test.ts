import { describe, expect, it } from "vitest";
import { lockedFileCount, withFileLock } from "./fileLock.js";

const tick = () => new Promise((r) => setTimeout(r, 2));

describe("per-file locks", () => {
  it("FS-EDIT-1 serialises work on one file and lets other files run concurrently", async () => {
    const log: string[] = [];
    const job = (key: string, name: string) =>
      withFileLock(key, async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([job("/f", "a"), job("/f", "b"), job("/g", "c"), job("/f", "d")]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    const onF = log.filter((e) => !e.startsWith("c"));
    expect(onF).toEqual(["a+", "a-", "b+", "b-", "d+", "d-"]);
    expect(log.indexOf("c+")).toBeLessThan(log.indexOf("a-"));
  });

  it("FS-EDIT-1 releases after a failure and leaves no entry behind (no leak)", async () => {
    await expect(withFileLock("/x", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await withFileLock("/x", async () => "next")).toBe("next");
    await Promise.all(Array.from({ length: 200 }, (_, i) => withFileLock(`/k${i % 7}`, tick)));
    expect(lockedFileCount()).toBe(0);
  });
});
