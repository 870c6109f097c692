#!/usr/bin/env python3
"""Push versus pull, each push configuration against its own pull.

Benchmarks/suites/push-vs-pull.json is one suite: the server's push
strategy is its device axis (variants none, every-update,
at-most-one-per-20m, coalesced-10m), crossed with the pull policies. The
report compares every configuration with the one baseline ("none: never").
This pairs each push configuration with a pull-only one *by user*, within
the same run: "<variant>: <policy>" with "none: <policy>" (what push adds
to that pull policy) and "<variant>: never" with "none: fixed-interval"
(pure push against a fixed pull). It prints the change in fresh-launch
ratio, the extra background joules per user-day and Σ extra J / Σ extra
fresh launches with a percentile bootstrap interval over users.

    bgbench run Benchmarks/suites/push-vs-pull.json --out R/push-vs-pull
    python3 Examples/python/push_vs_pull.py R/push-vs-pull

Standard library only.
"""
import csv
import random
import sys

VARIANTS = ["every-update", "at-most-one-per-20m", "coalesced-10m"]
# (policy with push, pull-only policy)
PAIRS = [("never", "never"), ("fixed-interval", "fixed-interval"), ("usage-predictor", "usage-predictor"),
         ("ios-system", "ios-system"), ("never", "fixed-interval")]


def load(run_dir):
    rows = {}
    with open(f"{run_dir}/runs.csv", newline="") as f:
        for r in csv.DictReader(f):
            rows[(r["configuration"], r["replication"], r["user"])] = (
                float(r["energy_total_j"]), float(r["fresh_launches"]),
                float(r["fresh_launch_ratio"]), float(r["days"]))
    return rows


def ratio(pairs, idx):
    e = sum(pairs[i][0] for i in idx)
    f = sum(pairs[i][1] for i in idx)
    return e / f if f else float("nan")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    rows = load(argv[1])
    rng = random.Random(1)
    print("configuration,pull_only,users,d_fresh_ratio,extra_j_per_day,j_per_extra_fresh,ci95_low,ci95_high")
    for variant in VARIANTS:
        for policy, pull in PAIRS:
            conf, base = f"{variant}: {policy}", f"none: {pull}"
            keys = sorted(k[1:] for k in rows if k[0] == conf and (base,) + k[1:] in rows)
            if not keys:
                continue
            pairs = []
            for k in keys:
                p, b = rows[(conf,) + k], rows[(base,) + k]
                pairs.append((p[0] - b[0], p[1] - b[1], p[2] - b[2], p[3]))
            n = len(pairs)
            point = ratio(pairs, range(n))
            boots = sorted(ratio(pairs, [rng.randrange(n) for _ in range(n)]) for _ in range(1000))
            d_ratio = sum(p[2] for p in pairs) / n
            per_day = sum(p[0] / p[3] for p in pairs) / n
            print(f"{conf},{base},{n},{d_ratio:.4f},{per_day:.1f},{point:.1f},{boots[25]:.1f},{boots[974]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
