// The workspace: its root, the extra directories the user allowed, and the host's settings.
import { statSync } from "node:fs";
import { canonicalDir, isWithin } from "./paths.js";

export type Settings = Record<string, unknown>;

export class Workspace {
  private _root: string;
  private readonly additional: string[] = [];
  private _settings: Settings = {};
  private readonly settingsListeners = new Set<() => void>();

  constructor(root: string, additionalDirectories: string[] = []) {
    this._root = canonicalDir(root);
    for (const d of additionalDirectories) this.addDirectory(d);
  }

  get root(): string {
    return this._root;
  }

  get additionalDirectories(): readonly string[] {
    return this.additional;
  }

  get settings(): Readonly<Settings> {
    return this._settings;
  }

  setRoot(root: string): void {
    this._root = canonicalDir(root);
  }

  /** Adds an allowed directory; returns its canonical form. Throws when it is not a directory. */
  addDirectory(dir: string): string {
    const canonical = canonicalDir(dir, this._root);
    let isDir = false;
    try {
      isDir = statSync(canonical).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new Error(`Not a directory: ${canonical}. Give an existing directory to allow.`);
    if (!this.additional.includes(canonical) && canonical !== this._root) this.additional.push(canonical);
    return canonical;
  }

  allowedDirectories(): string[] {
    return [this._root, ...this.additional];
  }

  isAllowed(dir: string): boolean {
    return this.allowedDirectories().some((d) => isWithin(dir, d));
  }

  updateSettings(patch: Settings): void {
    this._settings = { ...this._settings, ...patch };
    for (const listener of this.settingsListeners) listener();
  }

  /** Calls `listener` after every settings change; returns the function that stops it. */
  onSettingsChanged(listener: () => void): () => void {
    this.settingsListeners.add(listener);
    return () => this.settingsListeners.delete(listener);
  }

  /** Typed read of one setting with a fallback when it is absent or of the wrong type. */
  setting<T extends string | number | boolean | string[]>(key: string, fallback: T): T {
    const value = this._settings[key];
    if (Array.isArray(fallback)) return (Array.isArray(value) && value.every((v) => typeof v === "string") ? value : fallback) as T;
    return (typeof value === typeof fallback ? value : fallback) as T;
  }
}

export function directoryExists(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
