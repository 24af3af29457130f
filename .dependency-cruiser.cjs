// Import rules between the app's folders, checked by `npm run lint:deps` (.ci/lint-deps.mjs), which
// also checks that the lib/ folders form no cycle. The layer map is explained in lib/README.md.
//
// "Runtime" below means an import that survives compilation: `import type` and imports used only
// as types are not runtime imports (tsPreCompilationDeps: "specify" marks them preCompilationOnly).

/** Test code may import anything: tests call route handlers, factories reach into every domain. */
const TEST_CODE = ["\\.test\\.tsx?$", "^lib/testing/", "/test-fixtures\\.ts$"];

/**
 * Every lib/ folder (and file directly in lib/) and the layer it sits in, bottom first. A folder
 * imports (at runtime) only folders of its own layer or of a lower one; inside a layer, folders may
 * import each other as long as no cycle forms between folders. A new lib/ folder must be added here
 * (lint:deps fails until it is).
 */
const LAYERS = [
  // Leaves every layer may use. The database (db/, outside lib/) is below all of them.
  {
    name: "base",
    units: ["env.ts", "logging.ts", "utils.ts", "shutdown.ts", "health.ts", "crypto", "http", "mail", "statuses", "channels", "jobs"],
  },
  // Who is calling and what they may do: accounts, sessions, keys, roles, the audit trail, and the
  // route wrapper that ties them together.
  { name: "platform", units: ["audit", "api-keys", "auth", "members", "routing"] },
  // The product's rules.
  {
    name: "domains",
    units: [
      "workspaces.ts", "templates", "contacts", "audiences", "imports", "logs", "senders", "campaigns", "trigger",
      "bulk", "outbox", "messaging", "inbound", "conversations", "alerts", "event-webhooks", "sources", "journeys",
    ],
  },
  // The API's published contract, built from the domains' schemas.
  { name: "contract", units: ["openapi"] },
  // Wires everything together (the job registry's contents, channel registrations).
  { name: "composition", units: ["engine"] },
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The path pattern of some lib/ units: a folder matches everything under it, a file itself. */
const unitsPattern = (units) => `^lib/(${units.map((unit) => (unit.endsWith(".ts") ? `${escape(unit)}$` : `${escape(unit)}/`)).join("|")})`;

const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const higher = LAYERS.slice(index + 1).flatMap((l) => l.units);
  return {
    name: `layer-${layer.name}`,
    comment: `lib/ in the "${layer.name}" layer never imports (at runtime) a higher layer: ${higher.join(", ")}. See lib/README.md.`,
    severity: "error",
    from: { path: unitsPattern(layer.units), pathNot: TEST_CODE },
    to: { path: unitsPattern(higher), preCompilationOnly: false },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-not-to-app",
      comment: "lib/ holds the rules and runs without Next.js pages: it never imports app/ or components/ (tests may call route handlers).",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST_CODE },
      to: { path: "^(app|components)/" },
    },
    {
      name: "components-not-to-db",
      comment: "Components render what a page loaded: they never import db/, not even its types (a page or lib/ loads the data).",
      severity: "error",
      from: { path: "^components/", pathNot: TEST_CODE },
      to: { path: "^db/" },
    },
    ...layerRules,
    {
      name: "not-to-unresolvable",
      comment: "An import that does not resolve to a file would hide a dependency from these rules.",
      severity: "error",
      from: { path: "^(lib|app|components|db)/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^node_modules/", "^\\.next"] },
    tsPreCompilationDeps: "specify",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
// For .ci/lint-deps.mjs (the folder-cycle check); not enumerable, so dependency-cruiser's own
// configuration schema does not see them.
Object.defineProperties(module.exports, { layers: { value: LAYERS }, testCode: { value: TEST_CODE } });
