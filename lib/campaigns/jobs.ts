import { defineJob } from "@/lib/jobs/types";
import { foldCountDeltas } from "./counts";

const FOLD_BATCH = 50_000;

/** Folds the deltas every few seconds; again at once while a full batch was folded. */
export const campaignCountsJob = defineJob({
  name: "campaigns.counts",
  every: 5_000,
  singleFlight: true,
  run: async (db) => ({ folded: await foldCountDeltas(db, FOLD_BATCH) }),
  busy: (result) => result.folded >= FOLD_BATCH,
});
