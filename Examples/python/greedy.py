#!/usr/bin/env python3
"""`greedy` over the external protocol: run every request as soon as the OS
allows it, wake at the next earliest begin. Gives byte-identical runs.csv,
summary.csv and events.csv to BGBench's built-in `greedy`
(ExternalPolicyTests, `make test-examples`).

By default in plan mode: one plan per request (run whenever eligible, wake
at its earliest begin), which never changes, so bgbench asks only when a
request is submitted. `--decide`: asked at every decision point instead,
the pending list as changes (delta mode); `--whole-pending`: at every
decision point with the whole pending list. The same decisions in all
three (the `make bench` rows external-greedy-plans, -delta and -whole)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bgbench_policy import Plan, PlanningPolicy, serve  # noqa: E402


class Greedy(PlanningPolicy):
    observes = ()          # it reads no observation: a plan never changes

    def plan(self, request):
        return Plan(run_from=0, wake_at=request["earliestBegin"])


if __name__ == "__main__":
    args = sys.argv[1:]
    per_decision = "--decide" in args or "--whole-pending" in args
    serve(Greedy, pending_delta="--whole-pending" not in args, plans=not per_decision)
