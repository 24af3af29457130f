import { describe, expect, it } from "vitest";
import { growthSvg, scale } from "./growth-chart";

describe("growth chart", () => {
  it("places sizes on a logarithmic axis and values on a linear one", () => {
    expect(scale(100, 10, 1000, 400, true)).toBeCloseTo(200);
    expect(scale(1000, 10, 1000, 400, true)).toBeCloseTo(400);
    expect(scale(25, 0, 100, 400, false)).toBeCloseTo(100);
  });

  it("draws each point with its label, and a linear reference per series on the time panel", () => {
    const svg = growthSvg(
      [
        {
          name: "import <rows>",
          color: "#d97706",
          points: [
            { sizePercent: 1000, label: "10 rows", seconds: 100, rssGrowthMb: 30 },
            { sizePercent: 10, label: "0.1 rows", seconds: 1, rssGrowthMb: 10 },
            { sizePercent: 100, label: "1 row", seconds: 10, rssGrowthMb: 20 },
          ],
        },
      ],
      "test",
    );
    expect(svg.match(/<circle /g)).toHaveLength(6);
    expect(svg).toContain("import &lt;rows&gt;, 10 rows: 100");
    // Linear growth lies on its reference: the dashed line ends where the last point is drawn.
    const reference = /<line x1="[\d.]+" y1="[\d.]+" x2="([\d.]+)" y2="([\d.]+)" stroke="#d97706" stroke-dasharray/.exec(svg);
    expect(reference).not.toBeNull();
    expect(svg).toContain(`cx="${reference![1]}" cy="${reference![2]}"`);
  });

  it("refuses an empty picture", () => {
    expect(() => growthSvg([], "nothing")).toThrow();
  });
});
