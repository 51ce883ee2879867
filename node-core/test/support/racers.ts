// Real processes that race the file tools: one swaps a directory for a symlink to somewhere else
// and back in a tight loop, one appends lines to a file. Each runs until stopped and reports how
// many rounds it made, so a test can tell the race really ran.
import { spawn, type ChildProcess } from "node:child_process";

export interface Racer {
  /** Rounds completed so far (as last reported). */
  rounds(): number;
  /** Stops it and resolves with the rounds it completed. */
  stop(): Promise<number>;
}

/** `pauseMs`: after each batch, wait a random time up to this long (0: no wait). */
function startNodeLoop(body: string, args: string[], pace: { batch: number; pauseMs: number } = { batch: 50, pauseMs: 0 }): Promise<Racer> {
  // Each batch of rounds reports the count on stdout; a line on stdin (or its end) stops the loop.
  const script = `const fs=require("fs");const a=process.argv.slice(1);let n=0,stop=false;
    process.stdin.on("data",()=>{stop=true});process.stdin.on("end",()=>{stop=true});
    process.stdout.write("ready\\n");
    (function loop(){if(stop){process.stdout.write("done "+n+"\\n");process.exit(0)}
      for(let i=0;i<${pace.batch};i++){${body};n++}
      process.stdout.write(n+"\\n");${pace.pauseMs > 0 ? `setTimeout(loop,Math.random()*${pace.pauseMs})` : "setImmediate(loop)"}})();`;
  const child: ChildProcess = spawn(process.execPath, ["-e", script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  let rounds = 0;
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const lines = out.split("\n");
    out = lines.pop()!;
    for (const line of lines) {
      if (line === "ready") ready();
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

/**
 * Appends `appended <n>` lines (n = 0, 1, 2, …) to `file` at random moments (a few milliseconds
 * apart, sometimes back to back), opening it anew for each line as `echo … >> file` does.
 */
export function startAppender(file: string): Promise<Racer> {
  return startNodeLoop(`fs.appendFileSync(a[0],"appended "+n+"\\n")`, [file], { batch: 1, pauseMs: 10 });
}
