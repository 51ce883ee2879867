// A session is one conversation's state: its shell working directory, the directories it was
// allowed in addition to the workspace's, and per-session services (background tasks, read
// state) that are disposed with it. The main agent, each sub-agent created through the host
// protocol, and each MCP connection own one.
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { Services, type CoreServices, type Service, type ServiceKey } from "./services.js";
import type { EventBus } from "./events.js";
import { canonicalDir, isWithin } from "../util/paths.js";
import { isDirectory } from "../util/files.js";
import type { Workspace } from "./workspace.js";

/** A per-session service (read state, background tasks), identified by a ServiceKey<T, Session>. */
export type SessionService = Service;

/** Who drives a session that an agent opened over MCP (its `clientInfo`). */
export interface SessionClient {
  name: string;
  version?: string;
}

export class Session {
  /** Set for an attached agent's session (`serve --listen`): the MCP client's name and version. */
  client?: SessionClient;
  /**
   * The host relays an MCP client's calls into this session (`sessions/create` with `client`, e.g.
   * the IDE's own MCP server): its results reach a model, so they carry the task notices as in MCP mode.
   */
  relayedByHost = false;
  private _cwd: string;
  private readonly extraDirs: string[] = [];
  private readonly services: Services<Session>;
  private readonly controller = new AbortController();
  private disposing: Promise<void> | undefined;
  readonly children = new Set<Session>();

  constructor(
    readonly id: string,
    readonly workspace: Workspace,
    readonly events: EventBus,
    originalCwd: string,
    /** The services of the core this session belongs to (shared by all its sessions). */
    readonly coreServices: CoreServices,
    readonly parent?: Session,
  ) {
    // Every call in flight listens to this signal and stops listening when it ends; an agent may
    // run any number of calls at once, so Node's leak warning (more than 10 listeners) is no sign.
    setMaxListeners(0, this.controller.signal);
    this._originalCwd = originalCwd;
    this._cwd = originalCwd;
    this.services = new Services<Session>(this, `Session ${id}`);
  }

  private _originalCwd: string;

  get cwd(): string {
    return this._cwd;
  }

  /** The directory the session started in; `cd`s outside the allowed directories return here. */
  get originalCwd(): string {
    return this._originalCwd;
  }

  /** Moves the session to a new home (the host chose a different workspace root). */
  rebase(dir: string): void {
    this._originalCwd = dir;
    this.setCwd(dir, true);
  }

  /** Aborted when the session is disposed: long-running work tied to the session stops. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get disposed(): boolean {
    return this.disposing !== undefined;
  }

  /**
   * The directory the next command starts in. Falls back to the original directory (and tells
   * the caller so) when the tracked one has disappeared.
   */
  effectiveCwd(): { cwd: string; resetFrom?: string } {
    if (isDirectory(this._cwd)) return { cwd: this._cwd };
    const gone = this._cwd;
    this.setCwd(this.originalCwd, true);
    return { cwd: this._cwd, resetFrom: gone };
  }

  setCwd(dir: string, reset = false): void {
    if (dir === this._cwd) return;
    const previous = this._cwd;
    this._cwd = dir;
    this.events.emit("session/cwdChanged", { sessionId: this.id, cwd: dir, previousCwd: previous, reset });
  }

  /** Directories a `cd` may stay in: the workspace's and this session's own (and its parents'). */
  allowedDirectories(): string[] {
    const dirs = [...this.workspace.allowedDirectories()];
    for (let s: Session | undefined = this; s; s = s.parent) dirs.push(...s.extraDirs);
    return dirs;
  }

  isAllowedDirectory(dir: string): boolean {
    return this.allowedDirectories().some((d) => isWithin(dir, d));
  }

  addDirectory(dir: string): string {
    const canonical = canonicalDir(dir, this.workspace.root);
    if (!isDirectory(canonical)) throw new Error(`Not a directory: ${canonical}. Give an existing directory to allow.`);
    if (!this.extraDirs.includes(canonical)) this.extraDirs.push(canonical);
    return canonical;
  }

  /** The session's instance of a service, created on first use. */
  service<T extends SessionService>(key: ServiceKey<T, Session>): T {
    if (this.disposed) throw new Error(`Session ${this.id} has ended.`);
    return this.services.get(key);
  }

  /** The service if it was ever created (does not create it). */
  peekService<T extends SessionService>(key: ServiceKey<T, Session>): T | undefined {
    return this.services.peek(key);
  }

  /** Stops everything the session started: child sessions first, then services in reverse order. */
  dispose(): Promise<void> {
    if (!this.disposing) this.disposing = this.doDispose();
    return this.disposing;
  }

  private async doDispose(): Promise<void> {
    this.controller.abort(new Error(`session ${this.id} ended`));
    await Promise.all([...this.children].map((c) => c.dispose()));
    await this.services.dispose();
    this.parent?.children.delete(this);
    this.events.emit("session/disposed", { sessionId: this.id });
  }
}

const MAIN_SESSION_ID = "main";

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  readonly main: Session;

  constructor(
    private readonly workspace: Workspace,
    private readonly events: EventBus,
    private readonly coreServices: CoreServices,
  ) {
    this.main = new Session(MAIN_SESSION_ID, workspace, events, workspace.root, coreServices);
    this.sessions.set(MAIN_SESSION_ID, this.main);
  }

  get(id: string | undefined): Session | undefined {
    return this.sessions.get(id ?? MAIN_SESSION_ID);
  }

  list(): Session[] {
    return [...this.sessions.values()];
  }

  create(opts: { parentId?: string; cwd?: string; id?: string } = {}): Session {
    const parent = opts.parentId ? this.sessions.get(opts.parentId) : undefined;
    if (opts.parentId && !parent) throw new Error(`Unknown parent session "${opts.parentId}".`);
    const id = opts.id ?? `s-${randomBytes(4).toString("hex")}`;
    if (this.sessions.has(id)) throw new Error(`Session "${id}" already exists.`);
    const cwd = opts.cwd ? canonicalDir(opts.cwd, this.workspace.root) : (parent?.cwd ?? this.workspace.root);
    if (!isDirectory(cwd)) throw new Error(`Not a directory: ${cwd}. Give an existing directory as the session's cwd.`);
    const session = new Session(id, this.workspace, this.events, cwd, this.coreServices, parent);
    parent?.children.add(session);
    this.sessions.set(id, session);
    this.events.emit("session/created", { sessionId: id, parentSessionId: parent?.id, cwd });
    session.signal.addEventListener("abort", () => this.sessions.delete(id), { once: true });
    return session;
  }

  /** Disposes a session (and its children). The main session is only disposed by disposeAll. */
  async dispose(id: string): Promise<boolean> {
    const s = this.sessions.get(id);
    if (!s || s === this.main) return false;
    await s.dispose();
    return true;
  }

  async disposeAll(): Promise<void> {
    const all = [...this.sessions.values()].filter((s) => !s.parent);
    await Promise.all(all.map((s) => s.dispose()));
  }
}
