// Reading a folder's imports, for tests that hold a folder to its place in the layers.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The folder's code files, recursively, tests left out. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module a file imports (static, dynamic, re-exports, type-only too), as a path from the repository root. */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specifiers.map((spec) => {
    if (spec.startsWith("@/")) return spec.slice(2);
    if (spec.startsWith(".")) return path.relative(ROOT, path.resolve(path.dirname(file), spec));
    return spec;
  });
}
