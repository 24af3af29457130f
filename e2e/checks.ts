// Page checks shared by the specs: accessibility (axe, WCAG 2.1 A and AA) and fitting a phone's width.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Set E2E_ARTIFACTS=1 to keep a full-page screenshot of every page checked (e2e/.artifacts, not committed). */
export const ARTIFACTS = process.env.E2E_ARTIFACTS ? "e2e/.artifacts" : null;

export interface PageReport {
  page: string;
  violations: string[];
}

/** WCAG 2.1 A and AA checks; only serious and critical findings fail the run, all of them listed. */
export async function audit(page: Page, name: string, reports: PageReport[], { screenshot = true, exclude }: { screenshot?: boolean; exclude?: string } = {}) {
  if (ARTIFACTS && screenshot) await page.screenshot({ path: `${ARTIFACTS}/a11y-${name}-1280.png`, fullPage: true });
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  const results = await (exclude ? builder.exclude(exclude) : builder).analyze();
  const violations = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 8)
        .map((node) => `      ${node.target.join(" ")}\n        ${node.failureSummary?.replace(/\n/g, "\n        ")}`)
        .join("\n");
      return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.nodes.length} elements)\n${nodes}`;
    });
  if (violations.length) console.log(`${name}:\n${violations.join("\n")}`);
  reports.push({ page: name, violations });
}

export function expectNoViolations(reports: PageReport[]) {
  const failing = reports.filter((report) => report.violations.length > 0);
  const summary = failing.map((report) => `${report.page}:\n${report.violations.join("\n")}`).join("\n\n");
  expect(failing.map((report) => report.page), summary).toEqual([]);
}

/** The page is no wider than the phone: long code and URLs scroll or wrap inside their own boxes. */
export async function expectFitsPhone(page: Page, name: string) {
  if (ARTIFACTS) await page.screenshot({ path: `${ARTIFACTS}/mobile-${name}-390.png`, fullPage: true });
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
    const width = window.innerWidth;
    // The outermost elements reaching past the right edge, to say what to fix.
    const past = [...document.querySelectorAll<HTMLElement>("body *")].filter((element) => element.getBoundingClientRect().right > width + 1);
    const outermost = past.filter((element) => !past.includes(element.parentElement!));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: width,
      widest: outermost.slice(0, 5).map((element) => `<${element.tagName.toLowerCase()} class="${element.className}"> right=${Math.round(element.getBoundingClientRect().right)}`),
    };
  });
  expect(scrollWidth, `${name} is ${scrollWidth}px wide on a ${innerWidth}px screen:\n${widest.join("\n")}`).toBeLessThanOrEqual(innerWidth);
}
