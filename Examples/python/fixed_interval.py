#!/usr/bin/env python3
"""`fixed-interval` over the external protocol, written from
Docs/ExternalPolicyProtocol.md ("The built-in policies' schedules") alone.
Gives byte-identical runs.csv, summary.csv and events.csv to BGBench's
built-in `fixed-interval` with the same `interval` and `flex`
(`make test-examples`, Examples/python/test.sh).

By default with standing rules: the plan of a request depends only on
its app and kind and on the app's last run, so it gives bgbench one rule
per app and kind, which only a task report of its app may change (it
reads `taskFinished`, plan scope "app"): bgbench asks once per device
and then once after each task of an app ends (when a request of that app
is pending or comes). `--plans`: plan mode without rules, asked when a
request is submitted or its app's task ended. `--decide`: asked at every
decision point instead (delta mode). Not for use as the
base of a wrapper with `--decide` (coalescing asks its base ahead and
discards the answer): in that mode it keeps the wake it last answered, to
answer a session start as the built-in, which is not asked there.

Parameters (the spec's other parameters of `external`, durations as in
specs: "30m", "1h", ...): `interval` (default "1h"), `flex` (default "5m").
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bgbench_policy import Decision, Plan, PlanningPolicy, Rule, serve  # noqa: E402

UNITS = {"us": 1, "ms": 1_000, "s": 1_000_000, "m": 60_000_000, "h": 3_600_000_000, "d": 86_400_000_000}


def microseconds(duration):
    """A spec duration ("250ms", "1.5h") in whole microseconds."""
    for suffix in sorted(UNITS, key=len, reverse=True):
        if duration.endswith(suffix):
            number = duration[: -len(suffix)]
            whole, _, fraction = number.partition(".")
            value = int(whole) * UNITS[suffix]
            if fraction:
                value += int(fraction) * UNITS[suffix] // 10 ** len(fraction)
            return value
    raise ValueError("not a duration: %r" % duration)


class FixedInterval(PlanningPolicy):
    observes = ("taskFinished",)
    plan_scope = "app"      # a report changes the plans of its app only

    def __init__(self, start):
        super().__init__(start)
        self.interval = microseconds(self.params.get("interval", "1h"))
        self.flex = microseconds(self.params.get("flex", "5m"))
        self.last_run = {}      # app -> start of its last refresh or fetch run (any outcome)
        self.last_wake = None   # per-decision mode: the wake of the last decision answered

    def observe(self, o):
        if o["kind"] == "taskFinished":
            request = o["report"]["request"]
            if request["kind"] != "processing":
                self.last_run[request["app"]] = o["report"]["start"]

    def plan(self, r):
        if r["kind"] == "processing":
            return Plan(run_from=0)          # whenever eligible, no wake of its own
        app = r["app"]
        due = self.last_run[app] + self.interval if app in self.last_run else 0
        return Plan(run_from=due - self.flex, wake_at=max(due, r["earliestBegin"]))

    def rule(self, app, kind):
        # The plan of `plan` for every request of (app, kind): bgbench
        # raises the wake to the request's earliestBegin, as `plan` does.
        if kind == "processing":
            return Rule(run_from=0)
        due = self.last_run[app] + self.interval if app in self.last_run else 0
        return Rule(run_from=due - self.flex, wake_at=due)

    def app_rules(self, app):
        # What `rule` gives, said in two rules (the default asks `rule`
        # for each kind and merges them: the same rules, more Python).
        due = self.last_run[app] + self.interval if app in self.last_run else 0
        return (Rule(run_from=due - self.flex, wake_at=due, app=app),
                Rule(run_from=0, app=app, kind="processing"))

    def decide(self, ctx):
        # Per-decision mode only (plan mode is not asked at session starts).
        # The built-in is not asked at a session start: answer as if not
        # asked (keep the last wake), unless that wake is now, when the
        # built-in decides right after the session start.
        if ctx.reason == "sessionStart" and self.last_wake != ctx.now:
            return Decision(wake_at=self.last_wake)
        decision = super().decide(ctx)
        self.last_wake = decision.wake_at
        return decision


if __name__ == "__main__":
    args = sys.argv[1:]
    serve(FixedInterval, plans="--decide" not in args, rules="--decide" not in args and "--plans" not in args)
