#!/usr/bin/env python3
"""Compare the push-vs-pull suites (issue 18) configuration by configuration.

A spec cannot vary the device, so the study is four runs of the same world
(same seed, same users): Benchmarks/suites/push-vs-pull-none.json (pull
only) and one per server push strategy. This pairs each configuration of a
push run with a configuration of the pull-only run *by user* and prints the
change in fresh-launch ratio, the extra background joules per user-day and
Σ extra J / Σ extra fresh launches with a percentile bootstrap interval
over users (the report's own measure, across two runs).

    bgbench run Benchmarks/suites/push-vs-pull-none.json --out R/none
    bgbench run Benchmarks/suites/push-vs-pull.json --out R/every
    python3 Examples/python/push_vs_pull.py R/none R/every [more push runs]

Standard library only.
"""
import csv
import random
import sys

PAIRS = [("never", "never"), ("usage-predictor", "usage-predictor"),
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
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    base = load(argv[1])
    rng = random.Random(1)
    print("run,configuration,pull_only,users,d_fresh_ratio,extra_j_per_day,j_per_extra_fresh,ci95_low,ci95_high")
    for run in argv[2:]:
        push = load(run)
        for conf, pull in PAIRS:
            keys = sorted(k[1:] for k in push if k[0] == conf and (pull,) + k[1:] in base)
            if not keys:
                continue
            pairs = []
            for k in keys:
                p, b = push[(conf,) + k], base[(pull,) + k]
                pairs.append((p[0] - b[0], p[1] - b[1], p[2] - b[2], p[3]))
            n = len(pairs)
            point = ratio(pairs, range(n))
            boots = sorted(ratio(pairs, [rng.randrange(n) for _ in range(n)]) for _ in range(1000))
            d_ratio = sum(p[2] for p in pairs) / n
            per_day = sum(p[0] / p[3] for p in pairs) / n
            print(f"{run},{conf},{pull},{n},{d_ratio:.4f},{per_day:.1f},{point:.1f},{boots[25]:.1f},{boots[974]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
