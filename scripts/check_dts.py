"""Checks the TypeScript declarations wasm-pack generated (scripts/test.sh runs this on
www/pkg/csc.d.ts): the interfaces of src/bindings/types.rs are there, every export of the API
has its typed signature, and no declaration of the public API mentions `any` (the raw wasm
exports in `InitOutput` are wasm-bindgen's own and are skipped).

Usage: python3 scripts/check_dts.py www/pkg/csc.d.ts
"""

import re
import sys

INTERFACES = [
    "export type PhiKind =",
    "export interface Phi {",
    "export interface Params {",
    "export interface DatasetInfo {",
    "export interface EpsilonNetResult {",
    "export interface CacheResult {",
    "export interface KrrPosterior {",
    "export interface StageHash {",
    "export interface DeterminismReport {",
    "export interface NativeDeterminismReport extends DeterminismReport {",
    "export interface AlgorithmInfo<Id extends string = string> {",
    "export interface PaperPreset {",
    "export interface MetricInfo {",
    "export interface ParamInfo {",
    "export interface ArrivalInfo {",
    "export interface DatasetEntry {",
    "export interface PageControl {",
    "export interface PageControls {",
    "export interface HeadlineRow {",
    "export interface Headline {",
]

# Signatures that must appear verbatim (typed arrays may also be given as plain number arrays).
F32 = "Float32Array | number[]"
F64 = "Float64Array | number[]"
U32 = "Uint32Array | number[]"
SIGNATURES = [
    "export class Dataset {",
    "static synthetic(cFloor?: number | null): Dataset;",
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
    "export function policies(): AlgorithmInfo<PolicyId>[];",
    "export function offlineAlgorithms(): AlgorithmInfo[];",
    "export function paperPresets(): PaperPreset[];",
    "export function metrics(): MetricInfo[];",
    "export function parameters(): ParamInfo[];",
    "export function arrivalModels(): ArrivalInfo[];",
    "export function datasets(): DatasetEntry[];",
    "export function pageControls(): PageControls;",
]


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
    problems = [f"missing: {s}" for s in INTERFACES + SIGNATURES if re.sub(r"\s+", " ", s) not in flat]
    for no, line in enumerate(decls.splitlines(), 1):
        if re.search(r"\bany\b", line):
            problems.append(f"`any` in a declaration: {line.strip()}")
    undocumented = re.findall(r"\n\n(export (?:function|class) \w+)", raw)
    problems += [f"no doc comment: {d}" for d in undocumented]
    if problems:
        print(f"{path}: {len(problems)} problem(s)", *problems, sep="\n  ")
        return 1
    n_exports = len(re.findall(r"^export (?:function|class) ", decls, flags=re.M))
    print(f"{path}: {len(INTERFACES)} interfaces, {n_exports} exports typed and documented, no `any`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
