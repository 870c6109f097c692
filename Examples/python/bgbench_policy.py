"""Reference client of BGBench's external-policy protocol, version 1.

Standard library only. A policy is a class; `serve` runs the conversation
with bgbench on stdin/stdout (Docs/ExternalPolicyProtocol.md):

    from bgbench_policy import Policy, Decision, serve

    class Greedy(Policy):
        def decide(self, ctx):
            return Decision(run_all_eligible=True, wake_at=ctx.next_earliest_begin())

    serve(Greedy)

A policy whose rule is one plan per request subclasses `PlanningPolicy`
and writes `plan(request)` instead: `serve` then declares plan mode in its
`hello`, and bgbench asks only for the plans of new requests (and of those
an observation the policy reads may change), not at every decision point
(Docs/ExternalPolicyProtocol.md, "Plan mode"):

    class Greedy(PlanningPolicy):
        observes = ()
        def plan(self, request):
            return Plan(run_from=0, wake_at=request["earliestBegin"])

A planning policy whose plan depends only on the request's app and kind
(and on what it observed) may also give *standing rules*: `hello_rules`
(one list for every device, declared once in the `hello`) or `rule(app,
kind)` (sent with a `plans` reply for the apps whose rules bgbench
dropped). bgbench then plans every new request of that app and kind itself
and asks again only after an observation the policy reads
(Docs/ExternalPolicyProtocol.md, "Standing rules"):

    class Greedy(PlanningPolicy):
        observes = ()
        hello_rules = (Rule(run_from=0, wake_at=0),)   # wake at each earliest begin
        def plan(self, request):
            return Plan(run_from=0, wake_at=request["earliestBegin"])

A new policy object is built for every simulated device (the `start`
message), so nothing leaks from one device to the next: bgbench reuses a
process for many devices, and the results must not depend on which.
Times are whole microseconds since the start of the simulation (day 0,
00:00, a Monday).
"""

import json
import sys

PROTOCOL_VERSION = 1

MICROSECONDS_PER_SECOND = 1_000_000
MICROSECONDS_PER_HOUR = 3600 * MICROSECONDS_PER_SECOND
MICROSECONDS_PER_DAY = 24 * MICROSECONDS_PER_HOUR


class Decision:
    """What to run now and when to be woken next (`decision` message)."""

    def __init__(self, run=(), run_all_eligible=False, wake_at=None):
        self.run = list(run)                  # request ids, in order
        self.run_all_eligible = run_all_eligible
        self.wake_at = wake_at                # microseconds, or None

    def message(self):
        m = {"type": "decision", "run": self.run, "runAllEligible": self.run_all_eligible}
        m["wakeAt"] = None if self.wake_at is None else int(self.wake_at)
        return m


class Plan:
    """When a pending request runs and when to wake for it (plan mode): it
    runs at the first decision point at or after `run_from` at which the OS
    allows it (None: never); while it has not run, a decision point is
    wanted at `wake_at` (None: none)."""

    __slots__ = ("run_from", "wake_at")

    def __init__(self, run_from, wake_at=None):
        self.run_from = run_from
        self.wake_at = wake_at


class Rule:
    """A standing rule (plan mode): the plan of every request of `app`
    (None: every app) and `kind` (None: every kind) without a `plan`
    message: it runs from `run_from` (None: never) and wakes at
    max(`wake_at`, its earliestBegin) (`wake_at` None: no wake)."""

    __slots__ = ("app", "kind", "run_from", "wake_at")

    def __init__(self, run_from, wake_at=None, app=None, kind=None):
        self.app = app
        self.kind = kind
        self.run_from = run_from
        self.wake_at = wake_at

    def json(self):
        head = '{"app":%d,' % self.app if self.app is not None else "{"
        if self.kind is not None:
            head += '"kind":"%s",' % self.kind
        return '%s"runFrom":%s,"wakeAt":%s}' % (
            head, "null" if self.run_from is None else int(self.run_from),
            "null" if self.wake_at is None else int(self.wake_at))


KINDS = ("refresh", "processing", "fetch")


def observed_app(o):
    """The app an observation is about (plan scope "app"), or None (all apps)."""
    kind = o["kind"]
    if kind in ("launch", "sessionEnded", "forceQuit"):
        return o["app"]
    if kind in ("submitted", "cancelled"):
        return o["request"]["app"]
    if kind == "taskFinished":
        return o["report"]["request"]["app"]
    return None


class Context:
    """A `decide` message: what a Swift policy's `PolicyContext` holds.

    `pending` is the list of pending requests (dicts with "eligible" and
    "refusal"), whether bgbench sent it whole or as changes (delta mode)."""

    def __init__(self, message, pending=None):
        self.message = message
        self.now = message["now"]
        # What made this a decision point: "start", "sessionStart",
        # "sessionEnd", "stateChanged", "taskFinished" or "wake" (absent
        # from an older bgbench: read with a default).
        self.reason = message.get("reason", "wake")
        self.device = message["device"]
        self.pending = message["pending"] if pending is None else pending  # dicts; "eligible" and "refusal" from the OS rules
        self.radio_up_until = message["radioUpUntil"]
        self.last_session_end = message["lastSessionEnd"]
        self.background_joules = message["backgroundJoules"]
        self.refresh_budget = message["refreshBudget"]
        # Android only (absent on iOS): whether Doze defers background work
        # now; each pending request also carries its app's "bucket" and
        # "quotaLeft" (microseconds) when the device applies buckets.
        self.doze_defers = message.get("dozeDefers", False)

    def eligible(self):
        """The pending requests the OS would start now."""
        return [r for r in self.pending if r["eligible"]]

    def next_earliest_begin(self):
        """The earliest `earliestBegin` after now among pending requests, or None."""
        later = [r["earliestBegin"] for r in self.pending if r["earliestBegin"] > self.now]
        return min(later) if later else None


class Policy:
    """Subclass and override `decide` (and `observe` if it learns)."""

    def __init__(self, start):
        self.device = start["device"]         # {"user", "replication", "configuration"}
        self.apps = start["apps"]             # app numbers are 0 ..< apps
        self.params = start["params"]         # the spec's other parameters of `external`
        self.platform = start.get("platform", "ios")  # "android" on an Android device

    def observe(self, observation):
        """One element of a message's `observations` (has "kind", "now", "device")."""

    def decide(self, ctx):
        return Decision()

    def finish(self):
        """The device's simulation is over (`end`, after its observations)."""


class PlanningPolicy(Policy):
    """A policy that decides each request on its own: override `plan` (and
    `observe` if it learns). Declare in `observes` the observation kinds
    `observe` reads (only those are sent, and each may change plans) and in
    `plan_scope` which plans one changes: "all", or "app" (those of the
    app the observation is about).

    A plan may depend only on the request and on what `observe` has seen.
    `decide` is derived from the plans (the simulator's rule), so the same
    class also serves bgbench's per-decision mode (`serve(..., plans=False)`)."""

    observes = ("launch", "sessionEnded", "submitted", "taskFinished", "stateChanged",
                "refused", "forceQuit", "cancelled")
    plan_scope = "all"
    # Standing rules every device starts with (declared in the `hello`;
    # `Rule`s without an app): they must give the plans `plan` gives.
    hello_rules = ()

    def plan(self, request):
        return Plan(run_from=None)

    def rule(self, app, kind):
        """The standing rule for every request of `app` and `kind` until an
        observation the policy reads changes it (a `Rule`, or None: ask per
        request); it must give the plan `plan` gives. Asked for the apps
        whose rules bgbench dropped, at each `plans` reply."""
        return None

    def app_rules(self, app):
        """The standing rules of `app` (`Rule`s naming it), sent after
        bgbench dropped them. By default from `rule`, as few as give every
        kind its own: one for every kind with the plan most kinds share,
        then one per other kind (a later rule replaces an earlier one where
        they overlap); one per kind that has one when some kind has none.
        Override it to say the same more cheaply."""
        by_kind = [(kind, self.rule(app, kind)) for kind in KINDS]
        plans = [None if r is None else (r.run_from, r.wake_at) for _, r in by_kind]
        # A kind without a rule must stay uncovered: then one rule per kind.
        common = None if None in plans else max(plans, key=plans.count)
        out = [] if common is None else [Rule(common[0], common[1], app=app)]
        for (kind, rule), plan in zip(by_kind, plans):
            if plan != common and rule is not None:
                rule.app, rule.kind = app, kind
                out.append(rule)
        return out

    @classmethod
    def uses_rules(cls):
        """Whether the class gives standing rules (`hello_rules`, `rule`
        or `app_rules`)."""
        return (bool(cls.hello_rules) or cls.rule is not PlanningPolicy.rule
                or cls.app_rules is not PlanningPolicy.app_rules)

    def decide(self, ctx):
        now = ctx.now
        run, wake = [], None
        for r in ctx.pending:
            p = self.plan(r)
            if r["eligible"] and p.run_from is not None and now >= p.run_from:
                run.append(r["id"])
            elif p.wake_at is not None and p.wake_at > now and (wake is None or p.wake_at < wake):
                wake = p.wake_at
        return Decision(run=run, wake_at=wake)


def _plans_reply(policy, message, stale=None):
    """The `plans` reply; with `stale` (the apps whose standing rules
    bgbench dropped, from the observations it sent) also their new rules."""
    out = []
    for r in message["requests"]:
        p = policy.plan(r)
        out.append('{"id":%d,"runFrom":%s,"wakeAt":%s}' % (
            r["id"], "null" if p.run_from is None else int(p.run_from),
            "null" if p.wake_at is None else int(p.wake_at)))
    reply = '{"type":"plans","plans":[' + ",".join(out) + "]"
    if stale:
        rules = []
        for app in sorted(stale):
            rules.extend(r.json() for r in policy.app_rules(app))
        stale.clear()
        if rules:
            reply += ',"rules":[' + ",".join(rules) + "]"
    return reply + "}\n"


def _write(out, message):
    # One write of the whole line (two writes were two system calls).
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


class PendingList:
    """The pending list of one device in delta mode: the previous list
    without `pendingRemoved`, then `pendingAdded`; `eligible` and
    `refusals` (absent: before_earliest_begin) set on every request; on
    Android with buckets, `buckets` and `quotaLeft` set each request's
    "bucket" and "quotaLeft" as in a whole list."""

    def __init__(self):
        self.requests = []

    def update(self, message):
        removed = message["pendingRemoved"]
        if removed:
            gone = set(removed)
            self.requests = [r for r in self.requests if r["id"] not in gone]
        self.requests.extend(message["pendingAdded"])
        eligible = set(message["eligible"])
        refusals = message["refusals"]
        for r in self.requests:
            if r["id"] in eligible:
                r["eligible"] = True
                r["refusal"] = None
            else:
                r["eligible"] = False
                r["refusal"] = refusals.get(str(r["id"]), "before_earliest_begin") if refusals else "before_earliest_begin"
        buckets = message.get("buckets")
        if buckets is not None:
            left = message["quotaLeft"]
            for r in self.requests:
                r["bucket"] = buckets[str(r["id"])]
                r["quotaLeft"] = left[str(r["id"])]
        return self.requests


def serve(policy_class, stdin=None, stdout=None, pending_delta=True, plans=None, rules=None):
    """Answers bgbench until `bye` or the end of stdin. With `pending_delta`
    the client asks bgbench for the pending list as changes (less JSON to
    parse per decision; Docs/ExternalPolicyProtocol.md, "Delta mode"); a
    bgbench that does not know it sends it whole, which works the same.
    `plans` (default: whether the class is a `PlanningPolicy`) declares plan
    mode: bgbench sends `plan` messages, not `decide`. `rules` (default:
    plan mode and the class gives standing rules) declares the class's
    standing rules, so bgbench plans new requests without asking."""
    if plans is None:
        plans = issubclass(policy_class, PlanningPolicy)
    if rules is None:
        rules = plans and issubclass(policy_class, PlanningPolicy) and policy_class.uses_rules()
    per_rule = rules and (policy_class.rule is not PlanningPolicy.rule
                          or policy_class.app_rules is not PlanningPolicy.app_rules)
    stale = set()       # apps whose standing rules bgbench dropped
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    policy = None
    pending = None
    for line in stdin:
        message = json.loads(line)
        kind = message["type"]
        try:
            if kind == "hello":
                if message["protocol"] != PROTOCOL_VERSION:
                    _write(stdout, {"type": "error", "message": "this client speaks protocol %d" % PROTOCOL_VERSION})
                    return
                hello = {"type": "hello", "protocol": PROTOCOL_VERSION}
                if plans:
                    hello["mode"] = "plans"
                    hello["observes"] = list(policy_class.observes)
                    hello["planScope"] = policy_class.plan_scope
                    if rules and policy_class.hello_rules:
                        hello["rules"] = [json.loads(r.json()) for r in policy_class.hello_rules]
                elif pending_delta:
                    hello["pending"] = "delta"
                _write(stdout, hello)
            elif kind == "start":
                policy = policy_class(message)
                pending = PendingList()
                if per_rule:    # no rule of this device stands but the hello's
                    stale = set(range(policy.apps))
            elif kind == "plan":
                for o in message["observations"]:
                    policy.observe(o)
                    if per_rule:
                        app = observed_app(o) if policy.plan_scope == "app" else None
                        if app is None:
                            stale.update(range(policy.apps))
                        else:
                            stale.add(app)
                stdout.write(_plans_reply(policy, message, stale if per_rule else None))
                stdout.flush()
            elif kind == "decide":
                for o in message["observations"]:
                    policy.observe(o)
                current = pending.update(message) if "pendingAdded" in message else None
                decision = policy.decide(Context(message, current))
                _write(stdout, decision.message())
            elif kind == "end":
                for o in message["observations"]:
                    policy.observe(o)
                policy.finish()
                policy = None
                _write(stdout, {"type": "ended"})
            elif kind == "bye":
                return
            # Unknown message types are for later protocol versions: ignore.
        except Exception as error:  # tell bgbench, which names it in its error
            _write(stdout, {"type": "error", "message": "%s: %s" % (type(error).__name__, error)})
            raise
