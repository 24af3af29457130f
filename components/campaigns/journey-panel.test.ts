import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatDuration, JourneyPanel } from "./journey-panel";

const totals = { entered: 8, active: 1, waiting: 2, completed: 3, exited: 1, ended: 0, failed: 1, converted: 2, conversionRate: 0.25, medianSecondsToConvert: 5400 };

describe("the journey panel", () => {
  it("says durations in their two largest units", () => {
    expect(formatDuration(5400)).toBe("1 h 30 min");
    expect(formatDuration(90_061)).toBe("1 d 1 h");
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(0)).toBe("0 s");
  });

  it("is a labelled region with the runs by status, the conversion rate and the median time to convert", () => {
    const html = renderToStaticMarkup(createElement(JourneyPanel, { version: 2, totals, hasGoal: true }));
    expect(html).toContain('role="region" aria-labelledby="journey-panel-title"');
    expect(html).toContain("Version 2.");
    expect(html).toMatch(/Waiting<\/dt><dd[^>]*>2</);
    expect(html).toContain("25.0%");
    expect(html).toContain("1 h 30 min");
    expect(renderToStaticMarkup(createElement(JourneyPanel, { version: 0, totals: { ...totals, medianSecondsToConvert: null }, hasGoal: false }))).toContain("No goal set");
  });
});
