import { defineJob } from "@/lib/jobs/types";
import { recoverAbandonedImports } from "./recovery";

/** Resumes imports their process left behind (./recovery.ts), also those nobody is reading; again at once while it found some. */
export const importRecoveryJob = defineJob({
  name: "imports.recovery",
  every: 10_000,
  singleFlight: true,
  run: (db, { deadline }) => recoverAbandonedImports(db, { deadline }),
  busy: (pass) => pass.resumed + pass.reset > 0,
});
