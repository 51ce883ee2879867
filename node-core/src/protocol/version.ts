declare const __WAVE_CORE_VERSION__: string;

export const CORE_VERSION: string = typeof __WAVE_CORE_VERSION__ === "string" ? __WAVE_CORE_VERSION__ : "0.0.0-dev";
/** Host protocol version. The major part changes only with incompatible changes. */
export const PROTOCOL_VERSION = "2.0";
export const SERVER_NAME = "wave-core";
