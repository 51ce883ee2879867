// The workspace: its root, the extra directories the user allowed, and the host's settings.
import { isDirectory } from "../util/files.js";
import { canonicalDir } from "../util/paths.js";
import { Settings, type SettingKey, type SettingValue } from "./settings.js";

export class Workspace {
  private _root: string;
  private readonly additional: string[] = [];
  /** The host's settings (base/settings.ts has every key, its schema and its default). */
  readonly settings = new Settings();
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

  setRoot(root: string): void {
    this._root = canonicalDir(root);
  }

  /** Adds an allowed directory; returns its canonical form. Throws when it is not a directory. */
  addDirectory(dir: string): string {
    const canonical = canonicalDir(dir, this._root);
    if (!isDirectory(canonical)) throw new Error(`Not a directory: ${canonical}. Give an existing directory to allow.`);
    if (!this.additional.includes(canonical) && canonical !== this._root) this.additional.push(canonical);
    return canonical;
  }

  allowedDirectories(): string[] {
    return [this._root, ...this.additional];
  }

  updateSettings(patch: Readonly<Record<string, unknown>>): void {
    this.settings.update(patch);
    for (const listener of this.settingsListeners) listener();
  }

  /** Calls `listener` after every settings change; returns the function that stops it. */
  onSettingsChanged(listener: () => void): () => void {
    this.settingsListeners.add(listener);
    return () => this.settingsListeners.delete(listener);
  }

  /** One setting, typed; its default when the host did not give it or gave a value the schema refuses. */
  setting<K extends SettingKey>(key: K): SettingValue<K> {
    return this.settings.get(key);
  }
}
