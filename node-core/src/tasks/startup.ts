// Start-up work of the execution engine: task notices on results for MCP/CLI callers, and
// removal of output directories left by core processes that ended days ago. Nothing here blocks.
import type { WaveCore } from "../core/runtime.js";
import { removeStaleOutput } from "../shell/outputDir.js";
import { createLogger } from "../util/log.js";
import { attachTaskNotices } from "./notices.js";

const log = createLogger("tasks");
let cleaned = false;

export function startTaskSupport(core: WaveCore): void {
  core.addResultHook(attachTaskNotices);
  if (!cleaned) {
    cleaned = true;
    const timer = setTimeout(() => {
      void removeStaleOutput()
        .then((removed) => removed.length && log.debug("removed old output directories", { removed }))
        .catch((err: unknown) => log.debug("output cleanup failed", { error: err }));
    }, 2000);
    timer.unref();
  }
}
