// npm run lint:deps (.ci/lint-deps.mjs with .dependency-cruiser.cjs) run on small made-up trees:
// every rule fails on an import that breaks it, and a tree that breaks none passes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.resolve(import.meta.dirname, ".ci/lint-deps.mjs");
const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    module: "esnext",
    moduleResolution: "bundler",
    isolatedModules: true,
    strict: true,
    paths: { "@/*": ["./*"] },
  },
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function lintTree(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "import-rules-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "tsconfig.json"), TSCONFIG);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// No database is involved: the run on the embedded database covers it, the Postgres run skips the repeat.
describe.skipIf(Boolean(process.env.DATABASE_URL))("lint:deps", () => {
  it("fails on a folder cycle, an upward layer import, lib → components and components → db; not on type-only or test imports", () => {
    const { status, output } = lintTree({
      // alpha ↔ beta on runtime imports, with no cycle between modules.
      "lib/alpha/x.ts": 'import { y } from "@/lib/beta/y";\nexport const x = y;\n',
      "lib/alpha/w.ts": "export const w = 1;\n",
      "lib/beta/y.ts": "export const y = 2;\n",
      "lib/beta/z.ts": 'import { w } from "@/lib/alpha/w";\nexport const z = w;\n',
      // gamma → delta only through types (one `import type`, one import used as a type) and a test.
      "lib/gamma/t.ts": 'import type { D } from "@/lib/delta/d";\nimport { E } from "@/lib/delta/e";\nexport const t: D = 1;\nexport const u: E = 2;\n',
      "lib/gamma/t.test.ts": 'import { d } from "@/lib/delta/d";\nexport const check = d;\n',
      "lib/delta/d.ts": 'import { t } from "@/lib/gamma/t";\nexport type D = number;\nexport const d = t;\n',
      "lib/delta/e.ts": "export type E = number;\n",
      // base (http) imports platform (members) at runtime.
      "lib/http/h.ts": 'import { m } from "@/lib/members/m";\nexport const h = m;\n',
      "lib/members/m.ts": "export const m = 1;\n",
      // lib → components, and components → db through a type alone.
      "lib/http/a.ts": 'import { c } from "@/components/c";\nexport const a = c;\n',
      "components/c.ts": 'import type { T } from "@/db/t";\nexport const c: T = 1;\n',
      "db/t.ts": "export type T = 1;\n",
    });
    expect(status).toBe(1);
    expect(output).toContain("lib-folder-cycle: alpha, beta import each other");
    expect(output).toContain("lib/alpha/x.ts → lib/beta/y.ts");
    expect(output).toContain("lib/beta/z.ts → lib/alpha/w.ts");
    expect(output).not.toMatch(/lib-folder-cycle: .*delta/);
    expect(output).toMatch(/layer-base: lib\/http\/h\.ts → lib\/members\/m\.ts/);
    expect(output).toMatch(/lib-not-to-app: lib\/http\/a\.ts → components\/c\.ts/);
    expect(output).toMatch(/components-not-to-db: components\/c\.ts → db\/t\.ts/);
    expect(output).toContain("lib-layer-map: lib/alpha, lib/beta, lib/delta, lib/gamma not in the layer map");
  }, 120_000);

  it("passes a tree whose imports go down the layers", () => {
    const { status, output } = lintTree({
      "lib/contacts/a.ts": 'import { b } from "@/lib/http/b";\nexport const a = b;\n',
      "lib/http/b.ts": "export const b = 1;\n",
      "lib/openapi/c.ts": 'import { a } from "@/lib/contacts/a";\nexport const c = a;\n',
      "components/d.ts": 'import { c } from "@/lib/openapi/c";\nexport const d = c;\n',
    });
    expect(output).toContain("✔ lint:deps");
    expect(status).toBe(0);
  }, 120_000);
});
