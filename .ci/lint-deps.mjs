// npm run lint:deps — the import rules of .dependency-cruiser.cjs, plus two checks on the lib/ folder
// graph that dependency-cruiser's module-level rules cannot express:
//   1. no cycle between lib/ folders counting runtime imports only (a folder cycle needs no module
//      cycle: a/x → b/y and b/z → a/w is one), each cycle printed with the imports that make it;
//   2. every lib/ folder is placed in the layer map (a new folder must be given its layer).
// One cruise (about 10 s) serves all of it. Exits 1 on any violation.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { cruise, format } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const require = createRequire(import.meta.url);
const config = require("../.dependency-cruiser.cjs");
// Paths are relative to the working directory (the repository root under npm run).
const ROOTS = ["lib", "app", "components", "db", "proxy.ts", "instrumentation.ts", "instrumentation-node.ts"].filter((root) => existsSync(root));

const result = await cruise(
  ROOTS,
  { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } },
  {},
  { tsConfig: extractTSConfig("tsconfig.json") },
);
const cruised = result.output;
let failed = cruised.summary.error > 0;
if (failed) process.stdout.write((await format(cruised, { outputType: "err" })).output);

const testCode = config.testCode.map((pattern) => new RegExp(pattern));
const isTestCode = (path) => testCode.some((re) => re.test(path));
/** The lib/ folder (or file directly in lib/) a path belongs to. */
const unitOf = (path) => /^lib\/([^/]+)/.exec(path)?.[1] ?? null;

// Folder graph from runtime imports of non-test code, with the imports behind every edge.
const edges = new Map();
const units = new Set();
for (const mod of cruised.modules) {
  const from = unitOf(mod.source);
  if (!from || isTestCode(mod.source)) continue;
  units.add(from);
  for (const dep of mod.dependencies) {
    const to = unitOf(dep.resolved);
    if (!to || to === from || dep.preCompilationOnly || dep.dependencyTypes.includes("type-only")) continue;
    const key = `${from}\u0000${to}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(`${mod.source} → ${dep.resolved}${dep.dynamic ? " (dynamic import)" : ""}`);
  }
}
const next = new Map([...units].map((unit) => [unit, []]));
for (const key of edges.keys()) {
  const [from, to] = key.split("\u0000");
  next.get(from)?.push(to);
}

// Strongly connected components (Tarjan): every component of more than one folder is a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
let counter = 0;
function connect(unit) {
  index.set(unit, counter);
  low.set(unit, counter);
  counter += 1;
  stack.push(unit);
  onStack.add(unit);
  for (const to of next.get(unit) ?? []) {
    if (!index.has(to)) {
      connect(to);
      low.set(unit, Math.min(low.get(unit), low.get(to)));
    } else if (onStack.has(to)) {
      low.set(unit, Math.min(low.get(unit), index.get(to)));
    }
  }
  if (low.get(unit) === index.get(unit)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== unit);
    components.push(component);
  }
}
for (const unit of [...units].sort()) if (!index.has(unit)) connect(unit);

const cycles = components.filter((component) => component.length > 1);
for (const component of cycles) {
  failed = true;
  const members = new Set(component);
  console.log(`\nerror lib-folder-cycle: ${component.sort().join(", ")} import each other (runtime imports):`);
  for (const [key, imports] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
    const [from, to] = key.split("\u0000");
    if (!members.has(from) || !members.has(to)) continue;
    console.log(`  ${from} → ${to}`);
    for (const line of imports) console.log(`      ${line}`);
  }
}

const placed = new Set(config.layers.flatMap((layer) => layer.units));
const unplaced = [...units].filter((unit) => unit !== "testing" && !placed.has(unit)).sort();
if (unplaced.length > 0) {
  failed = true;
  console.log(`\nerror lib-layer-map: ${unplaced.map((unit) => `lib/${unit}`).join(", ")} not in the layer map (.dependency-cruiser.cjs, lib/README.md)`);
}

console.log(
  failed
    ? `\n✘ lint:deps failed (${cruised.summary.error} rule violations, ${cycles.length} folder cycles, ${unplaced.length} unplaced folders; ${cruised.summary.totalCruised} modules)`
    : `✔ lint:deps: no rule violations, no lib/ folder cycle (${cruised.summary.totalCruised} modules, ${units.size} lib/ folders)`,
);
process.exit(failed ? 1 : 0);
