// State one core owns besides its workspace and sessions, shared by all its sessions: created on
// first use, disposed when the core shuts down (after its sessions). Two cores in one process
// each have their own, so one core's shutdown never takes away what the other still uses.
import { createLogger } from "../util/log.js";

const log = createLogger("core");

export interface CoreService {
  dispose(): Promise<void> | void;
}

/** Identifies a per-core service and how to create it on first use. */
export class CoreServiceKey<T extends CoreService> {
  constructor(
    readonly name: string,
    readonly create: () => T,
  ) {}
}

export class CoreServices {
  private readonly services = new Map<CoreServiceKey<CoreService>, CoreService>();
  private disposing: Promise<void> | undefined;

  /** The core's instance of a service, created on first use. */
  get<T extends CoreService>(key: CoreServiceKey<T>): T {
    if (this.disposing) throw new Error(`The core has shut down; its ${key.name} service is gone. Start a new core.`);
    let svc = this.services.get(key as CoreServiceKey<CoreService>);
    if (!svc) {
      svc = key.create();
      this.services.set(key as CoreServiceKey<CoreService>, svc);
    }
    return svc as T;
  }

  /** Disposes every service, the last created first. Safe to call more than once. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      for (const [key, svc] of [...this.services].reverse()) {
        try {
          await svc.dispose();
        } catch (err) {
          log.error("a core service failed to dispose", { service: key.name, error: err });
        }
      }
    })();
    return this.disposing;
  }
}
