#!/usr/bin/env python3
"""`greedy` over the external protocol: run every request as soon as the OS
allows it, wake at the next earliest begin. Gives byte-identical runs.csv,
summary.csv, events.csv and apps.csv to BGBench's built-in `greedy` in
every mode (ExternalPolicyTests, `make test-examples`).

By default with a standing rule declared in its hello: every request of
every app runs whenever eligible and wakes at its earliest begin; it reads
no observation, so the rule never changes and bgbench never asks (a device
is `start` and `end`). `--plans`: plan mode without the rule, asked once
per new request. `--decide`: asked at every decision point, the pending
list as changes (delta mode); `--whole-pending`: at every decision point
with the whole pending list. The same decisions in all four (the
`make bench` rows external-greedy-rules, -plans, -delta and -whole)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bgbench_policy import Plan, PlanningPolicy, Rule, serve  # noqa: E402


class Greedy(PlanningPolicy):
    observes = ()          # it reads no observation: a plan never changes
    # max(0, earliestBegin) = earliestBegin: the plan of `plan` below.
    hello_rules = (Rule(run_from=0, wake_at=0),)

    def plan(self, request):
        return Plan(run_from=0, wake_at=request["earliestBegin"])


if __name__ == "__main__":
    args = sys.argv[1:]
    per_decision = "--decide" in args or "--whole-pending" in args
    serve(Greedy, pending_delta="--whole-pending" not in args, plans=not per_decision,
          rules=not per_decision and "--plans" not in args)
