"""Reads criterion's estimates of `cargo bench --bench engine -- horizon` (target/criterion/horizon)
and prints, per learner, the mean time at each T, the ratio of each T's time to the previous T's, the
exponent fitted by least squares to ln(time) on ln(T), and the exact/Nyström ratio at each T."""
import json, math, os, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join("target", "criterion", "horizon")
times = {}
for learner in sorted(os.listdir(root)):
    d = os.path.join(root, learner)
    if not os.path.isdir(d) or learner == "report":
        continue
    for t in os.listdir(d):
        est = os.path.join(d, t, "new", "estimates.json")
        if os.path.exists(est):
            times.setdefault(learner, {})[int(t)] = json.load(open(est))["mean"]["point_estimate"] / 1e9
for learner, by_t in times.items():
    ts = sorted(by_t)
    xs, ys = [math.log(t) for t in ts], [math.log(by_t[t]) for t in ts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / max(sum((x - mx) ** 2 for x in xs), 1e-300)
    row = "  ".join(f"T={t}: {by_t[t]:.3f} s" + (f" (×{by_t[t] / by_t[p]:.2f})" if p else "")
                    for p, t in zip([None] + ts[:-1], ts))
    print(f"{learner}: {row}; fitted exponent {slope:.2f}")
if len(times) == 2:
    (a, ta), (b, tb) = sorted(times.items())
    print("  ".join(f"T={t}: {a}/{b} = {ta[t] / tb[t]:.1f}" for t in sorted(set(ta) & set(tb))))
