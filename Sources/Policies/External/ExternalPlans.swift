import Device
import Foundation
import SimCore

/// The plans of a plan-mode decision process for one device
/// (Docs/ExternalPolicyProtocol.md, "Plan mode"), one per pending request,
/// and the decision they give at a decision point.
///
/// The rule is the simulator's for a built-in planning policy
/// (``RequestPlanningPolicy``'s derived `decide`, which the simulator's
/// kept plans reproduce): every eligible request whose plan's `runFrom`
/// has come runs, in pending order; the wake is the earliest plan wake
/// after now among the others. A plan is kept until an observation the
/// process reads may change it (its declared `planScope`); a request
/// without a plan — new, or its plan forgotten — is asked for in one
/// `plan` message with every other such request of the decision point.
///
/// Kept here, not in the simulator's `KeptPlans`, because the same
/// decision must come from `decide` when a wrapper (coalescing, backoff)
/// asks: kept per request id in the order of the pending list last seen,
/// re-matched by id only when that list changed.
///
/// A request without a plan first takes the standing rule of its app and
/// kind, if one stands (``ExternalRuleTable``: "Standing rules"); only
/// the requests without either are asked for.
struct ExternalPlans {
    struct Plan: Equatable, Sendable {
        /// Runs from here (whole µs) when the OS allows it; nil: never.
        var runFrom: Int64?
        /// Wanted decision point while it has not run; nil: none.
        var wakeAt: Int64?
    }

    private var ids: [RequestID] = []
    private var apps: [Int32] = []
    /// nil: not planned (new, or forgotten).
    private var plans: [Plan?] = []
    private var rules: ExternalRuleTable

    /// A device's plans: none yet, the standing rules of the `hello`.
    init(apps: Int, rules: [ExternalRule]) {
        self.rules = ExternalRuleTable(apps: apps, rules: rules)
    }

    /// Forgets the plans `observation` may change under `scope` (the
    /// simulator's rule for kept plans: an observation about an app changes
    /// that app's plans under `.observedApp`, one about no app all of them),
    /// and drops the standing rules of the same apps.
    mutating func forget(after observation: PolicyObservation, scope: PlanScope) {
        var app: Int32? = nil
        if scope == .observedApp {
            switch observation {
            case .launch(let a), .sessionEnded(let a), .forceQuit(let a): app = a
            case .cancelled(let r), .submitted(let r): app = r.app
            case .taskFinished(let report): app = report.request.app
            default: app = nil
            }
        }
        for i in plans.indices where app == nil || apps[i] == app { plans[i] = nil }
        rules.drop(app: app)
    }

    /// Brings the kept plans in line with `pending` (same requests, same
    /// order; plans kept by id), plans by the standing rules the requests
    /// they cover, and returns the requests still without a plan, in
    /// pending order.
    mutating func unplanned(_ pending: [TaskRequest]) -> [TaskRequest] {
        var same = pending.count == ids.count
        if same { for (i, r) in pending.enumerated() where r.id != ids[i] { same = false; break } }
        if !same {
            var newPlans: [Plan?] = []
            newPlans.reserveCapacity(pending.count)
            for r in pending { newPlans.append(ids.firstIndex(of: r.id).flatMap { plans[$0] }) }
            ids = pending.map(\.id)
            apps = pending.map(\.app)
            plans = newPlans
        }
        var out: [TaskRequest] = []
        for i in plans.indices where plans[i] == nil {
            if let rule = rules.rule(for: pending[i]) { plans[i] = rule.plan(for: pending[i]) } else { out.append(pending[i]) }
        }
        return out
    }

    /// Keeps the plans answered for `asked` (the requests of the `plan`
    /// message) and the reply's standing rules, for the requests to come.
    mutating func keep(_ answered: Reply, for asked: [TaskRequest]) {
        for (r, p) in zip(asked, answered.plans) {
            if let i = ids.firstIndex(of: r.id) { plans[i] = p }
        }
        rules.set(answered.rules)
    }

    /// A `plans` reply: a plan per request asked, and standing rules.
    struct Reply: Equatable {
        var plans: [Plan]
        var rules: [ExternalRule]
    }

    /// The decision of the plans at `context` (every pending request planned).
    func decision(_ context: PolicyContext) -> PolicyDecision {
        let now = context.now.microseconds
        var run: [RequestID] = []
        var wake: Int64? = nil
        for (i, r) in context.pending.enumerated() {
            guard let p = plans[i] else { continue }
            if let from = p.runFrom, now >= from, context.isEligible(r) { run.append(r.id); continue }
            if let w = p.wakeAt, w > now, wake.map({ w < $0 }) ?? true { wake = w }
        }
        return PolicyDecision(run: run, wakeAt: wake.map { SimTime(microseconds: $0) })
    }

    /// The `plans` reply to a `plan` message that asked for `asked` on a
    /// device with `apps` apps, checked field by field.
    static func parse(_ o: [String: Any], asked: [TaskRequest], apps: Int) throws(ExternalReply.Invalid) -> Reply {
        guard o["type"] as? String == "plans" else {
            throw ExternalReply.Invalid(#"answered with "type" \#(ExternalReply.show(o["type"])) instead of "plans""#)
        }
        guard let list = o["plans"] as? [Any] else {
            throw ExternalReply.Invalid(#"answered with "plans" \#(ExternalReply.show(o["plans"])), expected an array of one plan per request asked"#)
        }
        guard list.count == asked.count else {
            throw ExternalReply.Invalid(#"answered with \#(list.count) plan(s) in "plans" for the \#(asked.count) request(s) asked (ids \#(asked.map { String($0.id.rawValue) }.joined(separator: ", ")))"#)
        }
        var out: [Plan] = []
        out.reserveCapacity(list.count)
        for (i, (v, r)) in zip(list, asked).enumerated() {
            let at = #""plans"[\#(i)]"#
            guard let p = v as? [String: Any] else {
                throw ExternalReply.Invalid(#"answered with \#(at) \#(ExternalReply.show(v)), expected an object {"id", "runFrom", "wakeAt"}"#)
            }
            guard let id = p["id"] as? Int, id == Int(r.id.rawValue) else {
                throw ExternalReply.Invalid(#"answered with \#(at).id \#(ExternalReply.show(p["id"])), expected \#(r.id.rawValue): the plans answer the requests of the "plan" message in their order"#)
            }
            out.append(Plan(runFrom: try time(p, "runFrom", at, required: true), wakeAt: try time(p, "wakeAt", at, required: false)))
        }
        return Reply(plans: out, rules: try ExternalRule.parse(o["rules"], from: .plans(apps: apps)))
    }

    /// A time field of a plan: whole microseconds, or null.
    private static func time(_ p: [String: Any], _ key: String, _ at: String, required: Bool) throws(ExternalReply.Invalid) -> Int64? {
        guard let v = p[key] else {
            if required { throw ExternalReply.Invalid(#"answered with no \#(at).\#(key), expected whole microseconds or null"#) }
            return nil
        }
        if v is NSNull { return nil }
        guard let t = v as? Int else {
            throw ExternalReply.Invalid(#"answered with \#(at).\#(key) \#(ExternalReply.show(v)), expected whole microseconds or null"#)
        }
        return Int64(t)
    }
}
