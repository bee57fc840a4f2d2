import { CHART_WORDS } from "~/domain/admin/chart";
import { formatDayMonth } from "~/domain/dates";
import { formatWholeDollars } from "~/domain/money";

/**
 * Revenue (bars) and paid orders (line) per week, drawn on the server as SVG: no chart
 * library reaches the browser. A table with the same figures follows for screen readers.
 */
export type WeekView = { weekStart: string; revenue: number; orders: number };

/**
 * Two drawings of the same figures: one for a wide card, one for a phone's (shown by CSS, no script).
 * An SVG scales its text with it, so the phone's has its own narrower grid, bigger type and fewer
 * week labels: its axis labels read at about 11 px, not the 6 px the wide one shrinks to at 390 px.
 */
const LAYOUTS = {
  wide: { W: 640, H: 200, font: 11, labelEvery: 2, pad: { top: 16, right: 36, bottom: 28, left: 56 } },
  narrow: { W: 340, H: 220, font: 12, labelEvery: 3, pad: { top: 16, right: 28, bottom: 30, left: 52 } },
} as const;

export function WeeklyChart({ weeks }: { weeks: WeekView[] }) {
  return (
    <figure className="chart card">
      <figcaption>
        <strong>{CHART_WORDS.title}</strong>{" "}
        <span className="hint">
          (last {weeks.length} weeks: {CHART_WORDS.key})
        </span>
        <span className="hint chart-counts">{CHART_WORDS.counts}</span>
      </figcaption>
      <ChartSvg weeks={weeks} layout="wide" />
      <ChartSvg weeks={weeks} layout="narrow" />
      <details>
        <summary>Show the figures</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Week from</th>
              <th scope="col">Revenue</th>
              <th scope="col">{CHART_WORDS.column}</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.weekStart}>
                <td>{formatDayMonth(w.weekStart)}</td>
                <td>{formatWholeDollars(w.revenue)}</td>
                <td>{w.orders}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function ChartSvg({ weeks, layout }: { weeks: WeekView[]; layout: keyof typeof LAYOUTS }) {
  const { W, H, font, labelEvery, pad: PAD } = LAYOUTS[layout];
  const maxRevenue = Math.max(1, ...weeks.map((w) => w.revenue));
  const maxOrders = Math.max(1, ...weeks.map((w) => w.orders));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, weeks.length);
  const x = (i: number) => PAD.left + i * slot;
  const yRevenue = (v: number) => PAD.top + innerH - (v / maxRevenue) * innerH;
  const yOrders = (v: number) => PAD.top + innerH - (v / maxOrders) * innerH;
  const line = weeks.map((w, i) => `${x(i) + slot / 2},${yOrders(w.orders)}`).join(" ");
  const titleId = `chart-title-${layout}`;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={titleId} className={`chart-svg chart-${layout}`}>
      <title id={titleId}>{`Weekly revenue and paid orders for the last ${weeks.length} weeks`}</title>
      <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} stroke="#9aa5a0" />
      <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" fontSize={font} fill="#4d5b54">
        {formatWholeDollars(maxRevenue)}
      </text>
      <text x={PAD.left - 6} y={PAD.top + innerH} textAnchor="end" fontSize={font} fill="#4d5b54">
        $0
      </text>
      <text x={W - PAD.right + 6} y={PAD.top + 4} fontSize={font} fill="#7a4a00">
        {maxOrders}
      </text>
      {weeks.map((w, i) => (
        <g key={w.weekStart}>
          <rect
            x={x(i) + slot * 0.15}
            y={yRevenue(w.revenue)}
            width={slot * 0.7}
            height={PAD.top + innerH - yRevenue(w.revenue)}
            fill="#2f7d55"
          />
          {(weeks.length - 1 - i) % labelEvery === 0 ? (
            <text x={x(i) + slot / 2} y={H - 8} textAnchor="middle" fontSize={font} fill="#4d5b54">
              {formatDayMonth(w.weekStart)}
            </text>
          ) : null}
        </g>
      ))}
      <polyline points={line} fill="none" stroke="#b36b00" strokeWidth="2" />
      {weeks.map((w, i) => (
        <circle key={w.weekStart} cx={x(i) + slot / 2} cy={yOrders(w.orders)} r="3" fill="#b36b00" />
      ))}
    </svg>
  );
}
