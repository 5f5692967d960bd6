"""Checks the TypeScript declarations wasm-pack generated (scripts/test.sh runs this on
www/pkg/csc.d.ts): every export of the API has its typed signature, every type a declaration
names is declared (or a JavaScript built-in), every export is documented, and no declaration of
the public API mentions `any` (the raw wasm exports in `InitOutput` are wasm-bindgen's own and are
skipped). The object types themselves are checked elsewhere: those generated from the Rust types
by tests/ts_types.rs, the hand-written ones (src/bindings/types.rs) against what the exports
return by scripts/smoke_pkg.mjs.

Usage: python3 scripts/check_dts.py www/pkg/csc.d.ts
"""

import re
import sys

# Signatures that must appear verbatim (typed arrays may also be given as plain number arrays).
F32 = "Float32Array | number[]"
F64 = "Float64Array | number[]"
U32 = "Uint32Array | number[]"
SIGNATURES = [
    "export class Dataset {",
    "static synthetic(cFloor?: number | null): Dataset;",
    "export function provideSynthetic(bytes: Uint8Array | number[]): void;",
    "export function formatDifference(mean: number | null, half: number | null | undefined): string;",
    "export function formatBounds(mean: number | null, lo: number | null | undefined, hi: number | null | undefined): string;",
    "static plane(): Dataset;",
    "static fromJsonl(name: string, bytes: Uint8Array | number[], embeddings?: Uint8Array | number[] | null,"
    " dim?: number | null, cFloor?: number | null, options?: LoadOptions | null): Dataset;",
    "static nqTrivia(nqJsonl: string, nqEmb: Uint8Array | number[], tqJsonl: string,"
    " tqEmb: Uint8Array | number[], perSource?: number | null, cFloor?: number | null,"
    " options?: LoadOptions | null): Dataset;",
    "readonly replayLength: number | undefined;",
    "readonly name: string;",
    "readonly size: number;",
    "readonly dim: number;",
    "readonly distScale: number;",
    "readonly checksum: string;",
    "info(): DatasetInfo;",
    "costs(): Float64Array;",
    "tokens(): Uint32Array;",
    "texts(): string[];",
    "groups(): Uint8Array;",
    "points(): Float32Array;",
    "projection(): Float64Array;",
    f"project(points: {F32}): Float64Array;",
    f"export function epsilonNet(points: {F32}, dim: number, eps: number, distScale: number): EpsilonNetResult;",
    f"export function reverseGreedy(points: {F32}, dim: number, distScale: number, weights: {F64},"
    f" costs: {F64}, k: number, phi?: Phi | null, incumbent?: {U32} | null): CacheResult;",
    f"export function exactOptimum(points: {F32}, dim: number, distScale: number, weights: {F64},"
    f" costs: {F64}, k: number, phi?: Phi | null): CacheResult;",
    f"export function discretisedLoss(points: {F32}, dim: number, distScale: number, weights: {F64},"
    f" costs: {F64}, cache: {U32}, phi?: Phi | null): number;",
    f"export function expectedLoss(evalPoints: {F32}, evalCosts: {F64}, cachePoints: {F32}, dim: number,"
    " distScale: number, phi?: Phi | null): number;",
    f"export function krrPosterior(obsPoints: {F32}, y: {F64}, dim: number, distScale: number,"
    f" query: {F32}, lengthScale: number, ridge: number): KrrPosterior;",
    "export function defaultParams(): Params;",
    "export function validateParams(params?: Partial<Params> | null): Params;",
    "export function determinismReport(seed?: number | null): DeterminismReport;",
    "export function nativeDeterminismReport(): NativeDeterminismReport;",
    "export function version(): string;",
    "export function commit(): string;",
    "export function policies(): (PolicyInfo & { id: PolicyId })[];",
    "export function offlineAlgorithms(): AlgorithmInfo[];",
    "export function paperPresets(): PaperPreset[];",
    "export function metrics(): MetricInfo[];",
    "export function parameters(): ParamInfo[];",
    "export function arrivalModels(): ArrivalInfo[];",
    "export function datasets(): DatasetEntry[];",
    "export function pageControls(): PageControls;",
    "export function quickDefinition(id: string): ExperimentSpec;",
    "export function tuneTarget(kind: \"precision\" | \"error_rate\", value: number): TuneTarget;",
    "export function tuneThreshold(report: Report | null, kind: \"precision\" | \"error_rate\", value: number): TuneAnswer;",
    "export function tuneCommand(experiment: ExperimentSpec | string, kind: \"precision\" | \"error_rate\", value: number, definition_file: string): string;",
]


# Names a declaration may use without declaring them: JavaScript's and wasm-bindgen's own.
BUILT_INS = {
    "Array", "Partial", "Record", "Promise", "Symbol", "Error", "Uint8Array", "Int8Array", "Uint32Array",
    "Int32Array", "Float32Array", "Float64Array", "BigInt64Array", "WebAssembly", "RequestInfo", "URL",
    "Response", "BufferSource", "Infinity", "NaN",
}


def undeclared(decls: str, raw: str) -> list:
    """Capitalised names used in the declarations (outside string literals) that nothing declares."""
    declared = set(re.findall(r"^\s*export (?:interface|type|class|enum) (\w+)", raw, flags=re.M))
    declared |= set(re.findall(r"<(\w+) extends", raw))
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', decls)
    code = re.sub(r"`[^`]*`", "``", code)
    used = set(re.findall(r"(?<![.\w])([A-Z]\w*)\b", code))
    return sorted(used - declared - BUILT_INS)


def public_declarations(text: str) -> str:
    """The declarations without comments and without wasm-bindgen's raw `InitOutput` exports."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"export interface InitOutput \{.*?\n\}", "", text, flags=re.S)


def main() -> int:
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    decls = public_declarations(raw)
    flat = re.sub(r"\s+", " ", decls)
    problems = [f"missing: {s}" for s in SIGNATURES if re.sub(r"\s+", " ", s) not in flat]
    problems += [f"used, not declared: {n}" for n in undeclared(decls, raw)]
    for no, line in enumerate(decls.splitlines(), 1):
        if re.search(r"\bany\b", line):
            problems.append(f"`any` in a declaration: {line.strip()}")
    undocumented = re.findall(r"\n\n(export (?:function|class) \w+)", raw)
    problems += [f"no doc comment: {d}" for d in undocumented]
    if problems:
        print(f"{path}: {len(problems)} problem(s)", *problems, sep="\n  ")
        return 1
    n_exports = len(re.findall(r"^export (?:function|class) ", decls, flags=re.M))
    n_types = len(re.findall(r"^export (?:interface|type) ", decls, flags=re.M))
    print(f"{path}: {n_exports} exports typed and documented, {n_types} types declared, no `any`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
