// Types for the parts of d3-delaunay 6 (d3-delaunay.min.mjs, vendored unmodified) that the page
// uses: views/live-panel.js draws the Voronoi cells of the live view's ε-net centers. Written by
// hand from d3-delaunay's README (the package ships no types); TypeScript reads this file for
// `import … from '…/d3-delaunay.min.mjs'` instead of type-checking the minified bundle.

/** A point as d3-delaunay takes it by default: `[x, y]`. */
export type Point = [number, number];
/** A closed polygon: its first point repeated at the end. */
export type Polygon = Point[];

/** The Voronoi diagram of a Delaunay triangulation, clipped to `[xmin, ymin, xmax, ymax]`. */
export interface Voronoi {
  /** The clipped cell of the point `i` (null when the cell is empty after clipping). */
  cellPolygon(i: number): Polygon | null;
}

/** The Delaunay triangulation of a set of points. */
export declare class Delaunay {
  /** The triangulation of `points` (`[x, y]` pairs by default: point `i` is `points[i]`). */
  static from(points: ArrayLike<ArrayLike<number>> | Iterable<ArrayLike<number>>): Delaunay;
  /** Its Voronoi diagram within `bounds` = `[xmin, ymin, xmax, ymax]` (default the view box 0 0 960 500). */
  voronoi(bounds?: [number, number, number, number]): Voronoi;
}
