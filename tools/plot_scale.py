#!/usr/bin/env python3
"""Draws the scale curves of docs/PERFORMANCE.md ("Scale"): time and peak memory
against the horizon T, log-log, one line per online policy, natively and in the page.

    python tools/plot_scale.py --native OUT/scale.csv --wasm WASM.json… --out docs/figures \
        [--csv docs/figures/scale.csv]

`--native` is scripts/scale.sh's CSV, `--wasm` the JSON files of tests/e2e/scale.mjs (`--json`); `--csv`
writes both as one small table (what the figures show). Policy names, colours and markers come
from the engine's list of algorithms (`csc list --json`, as tools/plot_figures.py reads it).
"""

import argparse
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_figures as pf  # noqa: E402
from plot_figures import plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

MiB = 2**20


def rows_of(native, wasm):
    """One row per (where, policy, T): wall s, CPU s, peak MiB, load average, status, message."""
    rows = []
    with open(native) as f:
        for r in csv.DictReader(f):
            setup = r["policy"] == "setup"
            ok = r["status"] == "ok"
            rows.append({
                "where": "native", "policy": r["policy"], "T": int(r["horizon"]), "status": r["status"],
                # the set-up's own time for the set-up row, else the policy's (set-up excluded)
                "wall_s": float(r["setup_wall_s" if setup else "run_wall_s"]) if ok else math.nan,
                "cpu_s": float(r["setup_cpu_s" if setup else "run_cpu_s"]) if ok else math.nan,
                "peak_mib": float(r["peak_rss_mib"]) if ok else math.nan,
                "load": r["loadavg"], "message": "",
            })
    for w in wasm:
        for r in json.load(open(w)):
            ok = r["status"] == "ok"
            rows.append({
                "where": "wasm", "policy": r["policy"], "T": int(r["horizon"]), "status": r["status"],
                # runUnit: the unit's set-up (trace, oracle) and the policy
                "wall_s": r["runMs"] / 1e3 if ok else math.nan,
                "cpu_s": r.get("cpuS", math.nan) if ok else math.nan,
                "peak_mib": r["memEnd"] / MiB if ok else math.nan,
                "load": r.get("loadAfter", "").split(" ")[0], "message": r.get("message", ""),
            })
    return rows


def short(v, _):
    """1,000 → 1k, 1,000,000 → 1M."""
    for div, suffix in ((1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:g}{suffix}"
    return f"{v:g}"


def panel(ax, rows, where, key, ylabel, title):
    pols = [p for p in dict.fromkeys(r["policy"] for r in rows if r["where"] == where)]
    for p in pols:
        pts = sorted((r["T"], r[key]) for r in rows if r["where"] == where and r["policy"] == p
                     and math.isfinite(r[key]) and r[key] > 0)
        if not pts:
            continue
        xs, ys = zip(*pts)
        grey = p == "setup"
        ax.plot(xs, ys, label="set-up alone" if grey else pf.N(p), color="#555555" if grey else pf.COLORS.get(p),
                marker=None if grey else pf.MARKERS.get(p, "o"), ls="--" if grey else "-", ms=5, lw=1.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis, fmt in ((ax.xaxis, short), (ax.yaxis, lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}")):
        axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(FuncFormatter(fmt))
        axis.set_minor_formatter(NullFormatter())
    # runs refused (the engine's plain message): a mark at the horizon each was refused at
    refused = sorted({r["T"] for r in rows if r["where"] == where and r["status"] == "error"})
    for t in refused:
        ax.axvline(t, color="#999999", ls=":", lw=1.2)
    if refused:
        ax.text(refused[0], ax.get_ylim()[0], " refused (stream too large\n for a browser run)",
                rotation=90, va="bottom", ha="right", fontsize=8, color="#555555")
    ax.set_xlabel("horizon T (log)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def figure(rows, out, name, key, ylabel, titles):
    fig, axes = plt.subplots(1, 2, figsize=(pf.W * 1.4, pf.H), sharey=True)
    for ax, (where, title) in zip(axes, titles):
        panel(ax, rows, where, key, ylabel, title)
    handles, labels = {}, []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in handles:
                handles[lab] = h
                labels.append(lab)
    fig.legend([handles[lab] for lab in labels], labels, loc="center right", fontsize=9)
    fig.tight_layout(rect=(0, 0, 0.84, 1))
    pf.save(fig, out, name)


def tables(rows):
    """Markdown: per place (native, wasm) one table of policies × T, each cell "CPU s · wall s ·
    peak MiB" (or what stopped the run), and the load averages seen."""
    out = []
    for where in ("native", "wasm"):
        rs = [r for r in rows if r["where"] == where]
        if not rs:
            continue
        ts = sorted({r["T"] for r in rs})
        pols = list(dict.fromkeys(r["policy"] for r in rs))
        out.append(f"\n{where}: CPU s · wall s · peak MiB\n")
        out.append("| policy | " + " | ".join(f"T = {t:,}" for t in ts) + " |")
        out.append("|---|" + "---:|" * len(ts))
        for p in pols:
            cells = []
            for t in ts:
                r = next((r for r in rs if r["policy"] == p and r["T"] == t), None)
                if r is None:
                    cells.append("")
                elif r["status"] != "ok":
                    cells.append(r["status"] + (f": {r['message']}" if r["message"] else ""))
                else:
                    cells.append(f"{r['cpu_s']:.1f} · {r['wall_s']:.1f} · {r['peak_mib']:.0f}")
            out.append(f"| {'set-up alone' if p == 'setup' else pf.N(p)} | " + " | ".join(cells) + " |")
        loads = [float(r["load"]) for r in rs if r["load"]]
        if loads:
            out.append(f"\nload average (1 min) at the end of the runs: {min(loads):.1f}–{max(loads):.1f}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--native", required=True, help="scripts/scale.sh's scale.csv")
    ap.add_argument("--wasm", nargs="*", default=[], help="tests/e2e/scale.mjs --json outputs")
    ap.add_argument("--out", default="docs/figures")
    ap.add_argument("--csv", default=None, help="also write the figures' numbers to this CSV")
    ap.add_argument("--csc", default=os.environ.get("CSC", "target/release/csc"))
    a = ap.parse_args()
    pf.load_catalog(a.csc)
    rows = rows_of(a.native, a.wasm)
    figure(rows, a.out, "scale-time", "wall_s", "wall time, s (log)",
           [("native", "natively: the policy alone (set-up apart)"),
            ("wasm", "in the page: runUnit (set-up + policy)")])
    figure(rows, a.out, "scale-cpu", "cpu_s", "CPU time, s (log)",
           [("native", "natively: this thread's CPU, the policy alone"),
            ("wasm", "in the page: Chromium's CPU (dataset load + runUnit)")])
    figure(rows, a.out, "scale-memory", "peak_mib", "peak memory, MiB (log)",
           [("native", "natively: peak resident set of the process"),
            ("wasm", "in the page: the worker's wasm linear memory")])
    print(tables(rows))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            for r in rows:
                w.writerow({k: (round(v, 3) if isinstance(v, float) and math.isfinite(v) else
                                ("" if isinstance(v, float) else v)) for k, v in r.items()})
        print(f"  wrote {a.csv}", file=sys.stderr)


if __name__ == "__main__":
    main()
