// Plane geometry for the table's zones, in the camera's normalized coordinates (x, y in 0..1). Zones are
// simple polygons; the adapter asks which one holds a marker, the config checks that none overlap.

export type Point = readonly [x: number, y: number];
export type Polygon = readonly Point[];

/** Ray casting; a point on an edge may fall either way, which is fine for markers that settle. */
export function contains(polygon: Polygon, [x, y]: Point): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Whether segments ab and cd cross or touch (collinear overlaps included). */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const within = (p: Point, q: Point, r: Point): boolean =>
    Math.min(p[0], q[0]) <= r[0] &&
    r[0] <= Math.max(p[0], q[0]) &&
    Math.min(p[1], q[1]) <= r[1] &&
    r[1] <= Math.max(p[1], q[1]);
  return (
    (d1 === 0 && within(c, d, a)) ||
    (d2 === 0 && within(c, d, b)) ||
    (d3 === 0 && within(a, b, c)) ||
    (d4 === 0 && within(a, b, d))
  );
}

const edges = (p: Polygon): [Point, Point][] => p.map((a, i) => [a, p[(i + 1) % p.length]!]);

/** True when two non-adjacent edges of the polygon meet (a bow tie: the corners were given out of order). */
export function selfIntersects(polygon: Polygon): boolean {
  const es = edges(polygon);
  for (let i = 0; i < es.length; i++) {
    for (let j = i + 1; j < es.length; j++) {
      const adjacent = j === i + 1 || (i === 0 && j === es.length - 1);
      if (!adjacent && segmentsMeet(es[i]![0], es[i]![1], es[j]![0], es[j]![1])) return true;
    }
  }
  return false;
}

/** Whether two simple polygons share any point: crossing edges, or one inside the other. */
export function overlap(a: Polygon, b: Polygon): boolean {
  for (const [p, q] of edges(a)) for (const [r, s] of edges(b)) if (segmentsMeet(p, q, r, s)) return true;
  return contains(a, b[0]!) || contains(b, a[0]!);
}

/** Twice the signed area; zero for a degenerate polygon (all corners on a line). */
export const doubleArea = (p: Polygon): number => edges(p).reduce((sum, [a, b]) => sum + a[0] * b[1] - b[0] * a[1], 0);

export const centroid = (p: Polygon): Point => [
  p.reduce((s, q) => s + q[0], 0) / p.length,
  p.reduce((s, q) => s + q[1], 0) / p.length,
];

/**
 * The corners in order around their centre, so that corners measured in any order make a simple polygon
 * (for convex zones, which is what people mark out on a table).
 */
export function aroundCentre(points: readonly Point[]): Point[] {
  const [cx, cy] = centroid(points);
  return [...points].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
}
