export { defineJob, type AnyJob, type Job, type JobContext, type JobRun, type JobsSummary } from "./types";
export { installedJobs, installJobs, runJob, runJobs, shutdownSignal, stopJobs } from "./runner";
export { drainInProgress, jobsSettled, runJobsSoon } from "./soon";
export { startJobLoop } from "./loop";
