// A stand-in benchmark for bench/processes.test.ts: starts a long-running server-like child through
// ownProcess, prints its pid, then waits (to be signalled) or fails (BENCH_FIXTURE=fail).
import { spawn } from "node:child_process";
import { ownProcess } from "./processes";

const child = ownProcess(spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }));
console.log(`child ${child.pid}`);
if (process.env.BENCH_FIXTURE === "fail") setTimeout(() => { throw new Error("a failed check"); }, 300);
else setInterval(() => {}, 1000);
