#!/usr/bin/env python3
"""The theory checks of `csc run` reports as Markdown tables (docs/REPRODUCTION.md, "Theory
diagnostics"): every cell is the report's own `theory` section (the engine's fits, words and
statement), nothing is computed here. Usage: python3 tools/theory_table.py REPORT.json [...]"""
import json
import subprocess
import sys


def names():
    """Algorithm id → display name, from the engine's list (`csc list --json`) when it runs."""
    try:
        out = subprocess.run(["csc", "list", "--json"], capture_output=True, text=True, check=True).stdout
        return {a["id"]: a["name"] for a in json.loads(out).get("policies", [])}
    except (OSError, subprocess.CalledProcessError, ValueError):
        return {}


def table(report, name):
    rows = ["| policy | T | quantity | measured | theorem | verdict | n |", "|---|---|---|---|---|---|---|"]

    def row(policy, t, c):
        rows.append(f"| {name.get(policy, policy)} | {t} | {c['name']} | {c['measured']} | "
                    f"{c['theorem']} ({c['reference']}) | {c['words']} | {c['n']} {c['over']} |")

    for g in report["theory"]["runs"]:
        for c in g["checks"]:
            row(g["policy"], f"{g['x']:.0f}", c)
    for h in report["theory"].get("horizons", []):
        c = h["check"]
        row(h["policy"], f"{c['from']:.0f} … {c['to']:.0f}", c)
    return "\n".join(rows)


if __name__ == "__main__":
    n = names()
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        print(f"#### {r['experiment']['id']}: theory checks ({r['experiment']['seeds']} seeds)\n")
        print(table(r, n))
        print()
