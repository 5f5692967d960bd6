// Types for the vendored UMD scripts that index.html loads as globals before the page's modules
// (`<script defer src="vendor/d3/d3.min.js">`, `vendor/plot/plot.umd.min.js`): the parts of d3 7
// and Observable Plot 0.6 that js/charts.js uses, written by hand from their documentation, so
// that `tsc -p www/jsconfig.json` checks the page against them without type-checking the
// minified bundles. Mark and plot options stay open records: Plot validates them at run time.

/** A d3 symbol type: draws itself into a path context at an area of `size` px². */
interface D3SymbolType {
  draw(context: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void; closePath(): void; arc?(x: number, y: number, r: number, a0: number, a1: number): void }, size: number): void;
}

/** The parts of the d3 global that the page uses. */
interface D3Global {
  /** The viridis colour of `t` in [0, 1] as a CSS colour string. */
  interpolateViridis(t: number): string;
  /** d3's symbol types by name: `symbolCircle`, `symbolSquare`, `symbolDiamond`, … */
  [symbol: `symbol${string}`]: D3SymbolType | undefined;
}

/** A scale of a drawn plot (`svg.scale('x')`). */
interface PlotScale {
  /** The screen position of a data value. */
  apply(value: unknown): number;
  /** The data value at a screen position (continuous scales). */
  invert?(position: number): unknown;
  /** The scale's screen range. */
  range: number[];
  /** The scale's data domain. */
  domain: unknown[];
  /** The width of a band (band scales). */
  bandwidth?: number;
}

/** A plot Plot drew: an SVG element (or a figure holding one) that knows its scales. */
type PlotFigure = (SVGSVGElement | HTMLElement) & { scale(name: 'x' | 'y' | 'color'): PlotScale };

/** A mark of Observable Plot: opaque to the page, which only passes it to `Plot.plot`. */
interface PlotMark {
  plot(options?: Record<string, unknown>): PlotFigure;
}

/** Options of a mark: channels (a field name, a function of the datum or a constant) and styles. */
type PlotMarkOptions = Record<string, unknown>;

/** The parts of the Plot global that the page uses. */
interface PlotGlobal {
  plot(options: Record<string, unknown> & { marks?: PlotMark[] }): PlotFigure;
  legend(options: Record<string, unknown>): SVGSVGElement | HTMLElement;
  areaY(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
  cell(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
  dot(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
  line(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
  ruleX(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
  ruleY(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
  text(data: Iterable<unknown>, options: PlotMarkOptions): PlotMark;
}

/** d3 (vendor/d3/d3.min.js); undefined if the script did not load. */
declare var d3: D3Global | undefined;
/** Observable Plot (vendor/plot/plot.umd.min.js); undefined if the script did not load. */
declare var Plot: PlotGlobal | undefined;
