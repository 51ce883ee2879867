// Types of check-vendor.mjs for the TypeScript tests.
export declare const TOOLS: string[];
export interface ElfInfo {
  machine: number;
  interp: string | null;
  needed: string[];
}
export interface MachOSlice {
  cpu: number;
  dylibs: string[];
}
export interface PeInfo {
  machine: number;
  dlls: string[];
}
export declare function readElf(buf: Buffer): ElfInfo | string;
export declare function readMachO(buf: Buffer): MachOSlice[] | string;
export declare function readPe(buf: Buffer): PeInfo | string;
export declare function checkPlatformDir(dir: string): string[];
export declare function checkVendorDir(vendorDir: string, required?: string[]): { platforms: string[]; problems: string[] };
