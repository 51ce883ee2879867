// Services a session or a core owns: created on first use, disposed with their owner, the last
// created first. A session owns per-conversation ones (read state, background tasks); a core owns
// the ones all its sessions share (the shell engine). Two cores in one process each have their
// own, so one core's shutdown never takes away what the other still uses.
import { createLogger } from "../util/log.js";

const log = createLogger("services");

export interface Service {
  dispose(): Promise<void> | void;
}

/** Identifies a service and how its owner creates it on first use. */
export class ServiceKey<T extends Service, Owner> {
  constructor(
    readonly name: string,
    readonly create: (owner: Owner) => T,
  ) {}
}

export class Services<Owner> {
  private readonly created = new Map<ServiceKey<Service, Owner>, Service>();
  private disposing: Promise<void> | undefined;

  /** `label` names the owner in errors and logs ("session s-1", "the core"). */
  constructor(
    private readonly owner: Owner,
    private readonly label: string,
  ) {}

  /** The owner's instance of a service, created on first use. */
  get<T extends Service>(key: ServiceKey<T, Owner>): T {
    if (this.disposing) throw new Error(`${this.label} has ended; its ${key.name} service is gone.`);
    let svc = this.created.get(key as ServiceKey<Service, Owner>);
    if (!svc) {
      svc = key.create(this.owner);
      this.created.set(key as ServiceKey<Service, Owner>, svc);
    }
    return svc as T;
  }

  /** The service if it was ever created (does not create it). */
  peek<T extends Service>(key: ServiceKey<T, Owner>): T | undefined {
    return this.created.get(key as ServiceKey<Service, Owner>) as T | undefined;
  }

  /** Disposes every service, the last created first; a failing one is logged. Safe to call again. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      for (const [key, svc] of [...this.created].reverse()) {
        try {
          await svc.dispose();
        } catch (err) {
          log.error("a service failed to dispose", { owner: this.label, service: key.name, error: err });
        }
      }
    })();
    return this.disposing;
  }
}

/** What a core owns for all its sessions (`core.services`). */
export type CoreServices = Services<void>;
