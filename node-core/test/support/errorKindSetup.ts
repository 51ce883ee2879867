// Vitest setup file: every in-process core's tool results go through the error-kind check.
import { WaveCore } from "../../src/core/runtime.js";
import { assertErrorKind } from "./errorKinds.js";

const callTool = WaveCore.prototype.callTool;
WaveCore.prototype.callTool = async function (this: WaveCore, req) {
  const result = await callTool.call(this, req);
  assertErrorKind(result, `${req.name} call`);
  return result;
};
