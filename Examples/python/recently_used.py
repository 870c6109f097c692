#!/usr/bin/env python3
"""Refresh only apps the user opened recently.

An app's background refresh runs (as soon as the OS allows) only if the user
launched that app within the last `window` hours; other apps' requests wait
until their next launch makes them recent again. Learns from `launch`
observations. Parameter (passed through by `external`): `windowHours`
(number, default 24). An assumption for illustration, not a published policy.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bgbench_policy import MICROSECONDS_PER_HOUR, Decision, Policy, serve  # noqa: E402


class RecentlyUsed(Policy):
    def __init__(self, start):
        super().__init__(start)
        self.window = float(self.params.get("windowHours", 24)) * MICROSECONDS_PER_HOUR
        self.last_launch = {}                 # app -> time of its last launch

    def observe(self, observation):
        if observation["kind"] == "launch":
            self.last_launch[observation["app"]] = observation["now"]

    def recent(self, app, now):
        t = self.last_launch.get(app)
        return t is not None and now - t <= self.window

    def decide(self, ctx):
        run, wakes = [], []
        for r in ctx.pending:
            if r["eligible"] and self.recent(r["app"], ctx.now):
                run.append(r["id"])
            elif r["earliestBegin"] > ctx.now:
                wakes.append(r["earliestBegin"])
        return Decision(run=run, wake_at=min(wakes) if wakes else None)


if __name__ == "__main__":
    serve(RecentlyUsed)
