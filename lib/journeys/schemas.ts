// Request shapes of the journey endpoints (shared with the OpenAPI document).
import { z } from "zod";

export const MAX_TIME_SCALE = 3600;

export const journeyTestRequestSchema = z
  .object({
    phone: z.string().min(1).max(40).meta({ description: "Who gets the test run's messages (E.164)." }),
    request: z.record(z.string(), z.unknown()).default({}).meta({ description: "An example trigger request body: its mapped fields are the run's context." }),
    timeScale: z.number().int().min(1).max(MAX_TIME_SCALE).default(60).meta({ description: "Waits and timeouts are divided by this: 60 makes an hour a minute." }),
  })
  .strict();
