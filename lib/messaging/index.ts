export { dispatchSettled, dispatchSoon } from "./dispatch";
export type { DispatchSummary } from "./dispatcher";
export { SANDBOX_TEST_NUMBERS } from "@/lib/channels";
