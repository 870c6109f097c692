#!/usr/bin/env python3
"""Greedy on Wi-Fi; on cellular only within a daily data budget.

Runs every eligible request (as `greedy`) while the device is on Wi-Fi or
offline; on cellular it runs them only while the bytes its background tasks
moved on cellular since midnight are under `cellularBytesPerDay` (number,
default 5,000,000). It learns what a task cost from the `taskFinished`
report's `bytesUp`, `bytesDown` and `network` (the network at the task's
start). An assumption for illustration, not a published policy; a request
started just under the budget may overshoot it by one task's bytes.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bgbench_policy import MICROSECONDS_PER_DAY, Decision, Policy, serve  # noqa: E402


class CellularBudget(Policy):
    def __init__(self, start):
        super().__init__(start)
        self.budget = float(self.params.get("cellularBytesPerDay", 5_000_000))
        self.day = 0
        self.cellular_today = 0.0

    def observe(self, observation):
        if observation["kind"] != "taskFinished":
            return
        report = observation["report"]
        # Bytes are counted on the day the task started.
        day = report["start"] // MICROSECONDS_PER_DAY
        if day != self.day:
            self.day, self.cellular_today = day, 0.0
        if report.get("network") == "cellular":
            self.cellular_today += report.get("bytesUp", 0) + report.get("bytesDown", 0)

    def decide(self, ctx):
        # A decide must not change the policy's state (look-ahead decides):
        # the day's total is only read here.
        today = ctx.now // MICROSECONDS_PER_DAY
        spent = self.cellular_today if today == self.day else 0.0
        allowed = ctx.device["network"] != "cellular" or spent < self.budget
        return Decision(run_all_eligible=allowed, wake_at=ctx.next_earliest_begin())


if __name__ == "__main__":
    serve(CellularBudget)
