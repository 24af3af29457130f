import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    globalSetup: ["./lib/testing/global-setup.ts"],
    setupFiles: ["./lib/testing/setup.ts"],
    pool: "forks",
    // Test files share a worker's module graph: each file still starts on an empty database (setup.ts),
    // and the suite runs in half the CPU time of re-importing Next, drizzle and zod for every file.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
