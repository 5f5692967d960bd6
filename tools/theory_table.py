#!/usr/bin/env python3
"""The theory checks of `csc run` reports as Markdown tables (docs/REPRODUCTION.md, "Theory
checks"): every cell is the report's own `theory` section (the engine's fits, words and
statement; Theorem 5.1's four terms at T, up to constants; Theorem 4.1's offline gap against n),
nothing is computed here but the formatting of a number. Usage:
python3 tools/theory_table.py REPORT.json [...]"""
import json
import subprocess
import sys


def names():
    """Algorithm id → display name, from the engine's list (`csc list --json`) when it runs."""
    try:
        out = subprocess.run(["csc", "list", "--json"], capture_output=True, text=True, check=True).stdout
        listed = json.loads(out)
        return {a["id"]: a["name"] for a in listed.get("policies", []) + listed.get("offline", [])}
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
    for h in report["theory"].get("horizons", []) + report["theory"].get("offline", []):
        c = h["check"]
        row(h["policy"], f"{c['from']:.0f} … {c['to']:.0f}", c)
    if report["theory"].get("offline"):
        rows[0] = rows[0].replace("| T |", "| stream length |")
    # Each quantity's stated test once, below the table: what every verdict is drawn by.
    checks = [c for g in report["theory"]["runs"] for c in g["checks"]]
    checks += [h["check"] for h in report["theory"].get("horizons", []) + report["theory"].get("offline", [])]
    tests = {}
    for c in checks:
        if c.get("test"):
            tests.setdefault(c["name"], c["test"])
    if tests:
        rows.append("")
        rows.append("The tests (tolerance 0.1 in the exponent):")
        rows.append("")
        rows.extend(f"- {q}: {t}." for q, t in tests.items())
    return "\n".join(rows)


def bounds(report, name):
    """Theorem 5.1's four terms at T beside Reg(T) (`theory.runs[].bound`), or None without any."""
    runs = [g for g in report["theory"]["runs"] if g.get("bound")]
    if not runs:
        return None
    cell = lambda v: "–" if v is None else f"{v:,.1f}"
    rows = ["| policy | T | Reg(T) | cost β_T√(Tγ_T) | arrival √(m_eff T ln T) | discretisation (1+2α)L_g√T "
            "| switching k m_max ln ln T | largest | n |", "|---|---|---|---|---|---|---|---|---|"]
    for g in runs:
        b = g["bound"]
        rows.append(f"| {name.get(g['policy'], g['policy'])} | {g['x']:.0f} | {cell(b['regret'])} | {cell(b['cost'])} "
                    f"| {cell(b['arrival'])} | {cell(b['discretisation'])} | {cell(b['switching'])} | {b['largest']} "
                    f"| {b['n']} seeds |")
    return "\n".join(rows)


if __name__ == "__main__":
    n = names()
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        print(f"#### {r['experiment']['id']}: theory checks ({r['experiment']['seeds']} seeds)\n")
        print(table(r, n))
        print()
        b = bounds(r, n)
        if b:
            print(f"#### {r['experiment']['id']}: Theorem 5.1's four terms at T, up to constants "
                  "(every O(·) constant = 1)\n")
            print(b)
            print()
