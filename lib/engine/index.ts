export { dispatchDependencies, ENGINE_JOBS, installEngine } from "./jobs";
export { startEngineLoop } from "./loop";
export { runCronJobs } from "./cron";
export { answerChainCall, runCronCall } from "./chain";
