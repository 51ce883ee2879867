// Real processes that race the file tools: one swaps a directory for a symlink to somewhere else
// and back in a tight loop, one appends lines to a file. Each runs until stopped and reports how
// many rounds it made, so a test can tell the race really ran, and what it recorded on the way.
import { spawn, type ChildProcess } from "node:child_process";

export interface Racer<R = undefined> {
  /** Rounds completed so far (as last reported). */
  rounds(): number;
  /** Stops it and resolves with the rounds it completed. */
  stop(): Promise<number>;
  /** What the loop recorded (its `record` array), once stopped. */
  record(): R;
}

/**
 * `pauseMs`: after each batch, wait a random time up to this long (0: no wait). The body may push
 * to `record`, which is handed back after the stop.
 */
function startNodeLoop<R = undefined>(body: string, args: string[], pace: { batch: number; pauseMs: number } = { batch: 50, pauseMs: 0 }): Promise<Racer<R>> {
  // Each batch of rounds reports the count on stdout; a line on stdin (or its end) stops the loop.
  const script = `const fs=require("fs");const a=process.argv.slice(1);let n=0,stop=false;const record=[];
    process.stdin.on("data",()=>{stop=true});process.stdin.on("end",()=>{stop=true});
    process.stdout.write("ready\\n");
    (function loop(){if(stop){process.stdout.write("record "+JSON.stringify(record)+"\\ndone "+n+"\\n",()=>process.exit(0));return}
      for(let i=0;i<${pace.batch};i++){${body};n++}
      process.stdout.write(n+"\\n");${pace.pauseMs > 0 ? `setTimeout(loop,Math.random()*${pace.pauseMs})` : "setImmediate(loop)"}})();`;
  const child: ChildProcess = spawn(process.execPath, ["-e", script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  let rounds = 0;
  let record: R | undefined;
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const lines = out.split("\n");
    out = lines.pop()!;
    for (const line of lines) {
      if (line === "ready") ready();
      if (line.startsWith("record ")) record = JSON.parse(line.slice(7)) as R;
      const m = /^(?:done )?(\d+)$/.exec(line);
      if (m) rounds = Number(m[1]);
    }
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return isReady.then(() => ({
    rounds: () => rounds,
    async stop() {
      child.stdin!.end("stop\n");
      await exited;
      return rounds;
    },
    record: () => {
      if (record === undefined) throw new Error("the racer has not been stopped, or it did not report what it recorded");
      return record;
    },
  }));
}

/**
 * Swaps `dir` (a directory or a file) for a symlink to `elsewhere` and back, over and over: the
 * real one is moved to `aside`, the link put in its place, removed, and the real one moved back.
 * It works in bursts of 20 swaps with short random pauses, so writes both race it and, now and
 * then, find the path quiet.
 */
export function startSymlinkSwapper(dir: string, aside: string, elsewhere: string): Promise<Racer> {
  return startNodeLoop(
    `const [dir,aside,elsewhere]=a;
     try{fs.renameSync(dir,aside)}catch{}
     try{fs.symlinkSync(elsewhere,dir)}catch{}
     try{fs.unlinkSync(dir)}catch{}
     try{fs.renameSync(aside,dir)}catch{try{fs.rmSync(aside,{recursive:true,force:true})}catch{}}`,
    [dir, aside, elsewhere],
    { batch: 20, pauseMs: 3 },
  );
}

/** When the appender opened the file for line n and when it began writing it (process.hrtime, ns). */
export interface AppendedLine {
  opened: bigint;
  writing: bigint;
}

/**
 * Appends `appended <n>` lines (n = 0, 1, 2, …) to `file` at random moments (a few milliseconds
 * apart, sometimes back to back), opening it anew for each line as `echo … >> file` does. Its
 * record says, for each line, when the file was opened and when the write began, on the
 * monotonic clock every process shares (process.hrtime.bigint() here).
 */
export async function startAppender(file: string): Promise<Racer<AppendedLine[]>> {
  const racer = await startNodeLoop<[string, string][]>(
    `const opened=process.hrtime.bigint();const fd=fs.openSync(a[0],"a");const writing=process.hrtime.bigint();
     fs.writeSync(fd,"appended "+n+"\\n");fs.closeSync(fd);record.push([String(opened),String(writing)])`,
    [file],
    { batch: 1, pauseMs: 10 },
  );
  return { ...racer, record: () => racer.record().map(([opened, writing]) => ({ opened: BigInt(opened), writing: BigInt(writing) })) };
}
