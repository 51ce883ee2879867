// Where command output files live: the core process's own folder (base/processDir.ts), which it
// removes when it exits and the next core's sweep removes when it could not.
export { PROCESS_TOKEN, ensureSupportFile, processOutputDir, removeStaleOutput } from "../base/processDir.js";
