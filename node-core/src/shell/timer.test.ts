import { afterEach, describe, expect, it, vi } from "vitest";
import { longTimeout } from "./timer.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("longTimeout", () => {
  it("BASH-TO-3 waits the whole time for values setTimeout cannot hold (above 2^31-1 ms)", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const day = 24 * 60 * 60 * 1000;
    longTimeout(60 * day, fired);
    vi.advanceTimersByTime(59 * day);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(day);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it("can be cancelled, and fires for 0 on the next turn", () => {
    vi.useFakeTimers();
    const a = vi.fn();
    const cancel = longTimeout(1000, a);
    cancel();
    vi.advanceTimersByTime(2000);
    expect(a).not.toHaveBeenCalled();
    const b = vi.fn();
    longTimeout(0, b);
    vi.advanceTimersByTime(0);
    expect(b).toHaveBeenCalledTimes(1);
  });
});
