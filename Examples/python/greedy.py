#!/usr/bin/env python3
"""`greedy` over the external protocol: run every request as soon as the OS
allows it, wake at the next earliest begin. Gives byte-identical runs.csv to
BGBench's built-in `greedy` (ExternalPolicyTests).

`--whole-pending`: take the whole pending list in every `decide` instead of
the changes (delta mode); the same decisions, more JSON per decision (the
`make bench` row external-greedy-whole)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bgbench_policy import Decision, Policy, serve  # noqa: E402


class Greedy(Policy):
    def decide(self, ctx):
        return Decision(run_all_eligible=True, wake_at=ctx.next_earliest_begin())


if __name__ == "__main__":
    serve(Greedy, pending_delta="--whole-pending" not in sys.argv[1:])
