// The growth curve as an SVG with no dependency: two panels sharing a logarithmic size axis (10 %,
// 100 %, 1,000 % of each benchmark's size). Left, time on a logarithmic axis with, per series, a dashed
// line of slope one through its smallest point: a series parallel to it grows linearly, below it
// better. Right, the server's memory growth on a linear axis.

export interface GrowthPoint {
  /** Percent of the benchmark's own size. */
  sizePercent: number;
  /** What the point is, for its label (e.g. "1,000,000 rows"). */
  label: string;
  seconds: number;
  rssGrowthMb: number;
}

export interface GrowthSeries {
  name: string;
  color: string;
  points: GrowthPoint[];
}

const WIDTH = 960;
const HEIGHT = 450;
const PANEL = { width: 400, height: 290, top: 70, left: [70, 550] as const };

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const decades = (min: number, max: number) => {
  const out: number[] = [];
  for (let d = Math.floor(Math.log10(min)); d <= Math.ceil(Math.log10(max)); d++) out.push(10 ** d);
  return out;
};
const formatNumber = (n: number) => (n >= 1 ? n.toLocaleString("en-US", { maximumFractionDigits: 0 }) : String(Number(n.toPrecision(1))));

/** Maps a value onto [0, length] over [min, max], logarithmically or linearly. */
export function scale(value: number, min: number, max: number, length: number, log: boolean): number {
  if (log) return ((Math.log10(value) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))) * length;
  return ((value - min) / (max - min)) * length;
}

interface Axis {
  min: number;
  max: number;
  log: boolean;
  ticks: number[];
  title: string;
}

function panel(left: number, title: string, x: Axis, y: Axis, series: GrowthSeries[], value: (p: GrowthPoint) => number, reference: boolean): string {
  const { width, height, top } = PANEL;
  const px = (v: number) => left + scale(v, x.min, x.max, width, x.log);
  const py = (v: number) => top + height - scale(Math.max(v, y.min), y.min, y.max, height, y.log);
  const parts: string[] = [];
  parts.push(`<text x="${left + width / 2}" y="${top - 22}" text-anchor="middle" font-size="15" font-weight="600">${escapeXml(title)}</text>`);
  parts.push(`<rect x="${left}" y="${top}" width="${width}" height="${height}" fill="none" stroke="#d0d4dc"/>`);
  for (const tick of y.ticks) {
    const yy = py(tick).toFixed(1);
    parts.push(`<line x1="${left}" x2="${left + width}" y1="${yy}" y2="${yy}" stroke="#eef0f4"/>`);
    parts.push(`<text x="${left - 8}" y="${yy}" dy="4" text-anchor="end" font-size="12" fill="#555">${escapeXml(formatNumber(tick))}</text>`);
  }
  for (const tick of x.ticks) {
    const xx = px(tick).toFixed(1);
    parts.push(`<line x1="${xx}" x2="${xx}" y1="${top}" y2="${top + height}" stroke="#eef0f4"/>`);
    parts.push(`<text x="${xx}" y="${top + height + 18}" text-anchor="middle" font-size="12" fill="#555">${escapeXml(`${formatNumber(tick)} %`)}</text>`);
  }
  parts.push(`<text x="${left + width / 2}" y="${top + height + 40}" text-anchor="middle" font-size="12">${escapeXml(x.title)}</text>`);
  parts.push(
    `<text transform="translate(${left - 50} ${top + height / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escapeXml(y.title)}</text>`,
  );
  for (const s of series) {
    const points = [...s.points].sort((a, b) => a.sizePercent - b.sizePercent);
    if (reference && points.length > 0) {
      const first = points[0]!;
      const last = points[points.length - 1]!;
      const linearAtLast = value(first) * (last.sizePercent / first.sizePercent);
      parts.push(
        `<line x1="${px(first.sizePercent).toFixed(1)}" y1="${py(value(first)).toFixed(1)}" x2="${px(last.sizePercent).toFixed(1)}" y2="${py(linearAtLast).toFixed(1)}" stroke="${s.color}" stroke-dasharray="5 4" opacity="0.6"/>`,
      );
    }
    const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${px(p.sizePercent).toFixed(1)},${py(value(p)).toFixed(1)}`).join(" ");
    parts.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2.5"/>`);
    for (const p of points) {
      parts.push(
        `<circle cx="${px(p.sizePercent).toFixed(1)}" cy="${py(value(p)).toFixed(1)}" r="4.5" fill="${s.color}"><title>${escapeXml(`${s.name}, ${p.label}: ${formatNumber(value(p))}`)}</title></circle>`,
      );
    }
  }
  return parts.join("\n");
}

/** The whole picture; `subtitle` says where and when it was measured. */
export function growthSvg(series: GrowthSeries[], subtitle: string): string {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) throw new Error("No points to draw.");
  const sizes = all.map((p) => p.sizePercent);
  const x: Axis = { min: Math.min(...sizes) / 1.5, max: Math.max(...sizes) * 1.5, log: true, ticks: decades(Math.min(...sizes), Math.max(...sizes)), title: "size, % of the benchmark's own" };
  // The time axis holds the points and the linear references drawn from the smallest point of each series.
  const times = all.map((p) => p.seconds).concat(
    series.map((s) => {
      const sorted = [...s.points].sort((a, b) => a.sizePercent - b.sizePercent);
      return sorted.length ? sorted[0]!.seconds * (sorted[sorted.length - 1]!.sizePercent / sorted[0]!.sizePercent) : 1;
    }),
  );
  const timeMin = Math.max(Math.min(...times) / 1.5, 1e-3);
  const timeMax = Math.max(...times) * 1.5;
  const time: Axis = { min: timeMin, max: timeMax, log: true, ticks: decades(timeMin, timeMax).filter((t) => t >= timeMin && t <= timeMax), title: "time, seconds (log)" };
  const memoryMax = Math.max(10, ...all.map((p) => p.rssGrowthMb)) * 1.2;
  const step = 10 ** Math.floor(Math.log10(memoryMax / 2));
  const memoryTicks = Array.from({ length: Math.floor(memoryMax / step) + 1 }, (_, i) => i * step).filter((_, i, list) => list.length <= 8 || i % 2 === 0);
  const memory: Axis = { min: 0, max: memoryMax, log: false, ticks: memoryTicks, title: "server RSS growth, MB" };
  const legend = series
    .map((s, i) => {
      const lx = 70 + i * 300;
      return `<line x1="${lx}" x2="${lx + 24}" y1="${HEIGHT - 14}" y2="${HEIGHT - 14}" stroke="${s.color}" stroke-width="2.5"/><text x="${lx + 30}" y="${HEIGHT - 10}" font-size="12">${escapeXml(s.name)}</text>`;
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, sans-serif" role="img" aria-label="Time and memory against size">
<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>
<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="13" fill="#555">${escapeXml(subtitle)}</text>
${panel(PANEL.left[0], "Time (dashed: linear from the smallest size)", x, time, series, (p) => p.seconds, true)}
${panel(PANEL.left[1], "Server memory growth", x, memory, series, (p) => p.rssGrowthMb, false)}
${legend}
</svg>
`;
}
