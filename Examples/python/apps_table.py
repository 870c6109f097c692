#!/usr/bin/env python3
"""Per-app table of a run made with `bgbench run --apps`.

    python3 Examples/python/apps_table.py RESULT_DIR [CONFIGURATION ...]

For each app (and the shared row: BGTask batch wake-ups and radio tails,
which go to no app; Docs/Outputs.md, "apps.csv") and each configuration
(default: all of them, in the order of runs.csv), prints as a markdown
table the fresh-launch ratio (mean over the runs in which the user
launched the app; a run without a launch has no ratio) and the background
energy attributed to the app in joules per user-day (mean over all runs:
energy_total_j / days). Standard library only.
"""

import csv
import math
import os
import sys
from collections import OrderedDict, defaultdict


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 64
    directory = argv[1]
    days = {}
    order = OrderedDict()
    with open(os.path.join(directory, "runs.csv"), newline="") as f:
        for row in csv.DictReader(f):
            days[(row["configuration"], row["replication"], row["user"])] = float(row["days"])
            order[row["configuration"]] = None
    apps_path = os.path.join(directory, "apps.csv")
    if not os.path.exists(apps_path):
        sys.stderr.write("%s: no apps.csv; run with --apps\n" % directory)
        return 65
    wanted = argv[2:] or list(order)
    unknown = [c for c in wanted if c not in order]
    if unknown:
        sys.stderr.write("unknown configuration(s): %s; known: %s\n" % (", ".join(unknown), ", ".join(order)))
        return 64
    ratios = defaultdict(list)      # (app, configuration) -> ratios
    joules = defaultdict(list)      # (app, configuration) -> J per user-day
    apps = OrderedDict()
    with open(apps_path, newline="") as f:
        for row in csv.DictReader(f):
            c = row["configuration"]
            if c not in wanted:
                continue
            name = row["app_name"]
            apps[(int(row["app"]) if row["app"] != "-1" else 1 << 30, name)] = None
            r = float(row["fresh_launch_ratio"])
            if not math.isnan(r):
                ratios[(name, c)].append(r)
            d = days[(c, row["replication"], row["user"])]
            joules[(name, c)].append(float(row["energy_total_j"]) / d if d > 0 else float("nan"))

    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")

    print("| app | " + " | ".join("`%s` fresh / J/day" % c for c in wanted) + " |")
    print("|---|" + "---|" * len(wanted))
    for _, name in sorted(apps):
        cells = []
        for c in wanted:
            r, j = mean(ratios[(name, c)]), mean(joules[(name, c)])
            cells.append(("—" if math.isnan(r) else "%.3f" % r) + " / " + ("%.2f" % j))
        print("| %s | %s |" % (name, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
