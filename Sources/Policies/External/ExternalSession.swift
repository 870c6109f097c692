import Device
import Foundation
import SimCore

/// One simulated device's conversation with a decision process: `start`,
/// then a `decide` per decision point (carrying the observations since the
/// last one), then `end` when the device's simulation is over — which is
/// when the last copy of its policy value goes away (`deinit`): the seam
/// has no "device finished" call, and the simulator drops its policy copy
/// exactly then.
///
/// After a failure the session answers "do nothing" without talking to the
/// process any more; the host holds the error and the runner stops.
final class ExternalSession: @unchecked Sendable {
    private let host: ExternalDecisionHost
    private let device: SimulatedDevice?
    private var process: DecisionProcess?
    /// `observations` elements since the last message, comma-separated.
    private var observations = ""
    private var lastTime: SimTime?
    private var failed = false
    /// No `decide` sent yet (the next one is the `start` decision point).
    private var first = true
    /// The kinds of the observations since the last message that arrived at
    /// `seenAt` (the `reason` of the next `decide`, ``DecideReason``).
    private var seen = DecideReason.Seen()
    private var seenAt: SimTime?
    /// The pending ids as the process holds them, for a process in delta
    /// mode (nil: it gets the whole list every time).
    private var sentPending: [RequestID]?
    /// The process's plans, for a process in plan mode (nil: decide mode).
    private var plans: ExternalPlans?
    /// The observation kinds sent to a plan-mode process (all in decide mode).
    private var observes = ObservationKinds.all
    private var scope = PlanScope.all
    private let appCount: Int

    /// `platform`: nil on iOS (its `start` message as before Android).
    init(host: ExternalDecisionHost, appCount: Int, now: SimTime, platform: DevicePlatform? = nil) {
        self.host = host
        self.appCount = appCount
        device = SimulatedDevice.current
        lastTime = now
        guard !host.hasFailed else { failed = true; return }
        do {
            let p = try host.checkOut()
            process = p
            let declared = p.declaration
            sentPending = declared.pendingDelta ? [] : nil
            if declared.mode == .plans {
                plans = ExternalPlans(apps: appCount, rules: declared.rules)
                observes = declared.observes
                scope = declared.scope
            }
            // `start` has no reply: it rides in front of the first `decide`.
            try p.send(ExternalMessages.start(device: device, appCount: appCount, params: host.params, platform: platform),
                       deadline: host.deadline(), stop: { [host] in host.isStopped })
        } catch let e as ExternalPolicyError {
            fail(e)
        } catch DecisionProcess.Failure.stopped {
            quit()
        } catch {
            fail(host.problem(error, message: "start", device: device, time: now))
        }
    }

    func observe(_ o: PolicyObservation, context: PolicyContext) {
        guard !failed else { return }
        // A plan-mode process gets the kinds it reads (at the top level the
        // simulator delivers no others; under a wrapper it delivers all).
        if plans != nil {
            guard observes.contains(o.kind) else { return }
            plans!.forget(after: o, scope: scope)
        }
        if !observations.isEmpty { observations += "," }
        observations += ExternalMessages.observation(o, context)
        lastTime = context.now
        if seenAt != context.now { seenAt = context.now; seen = .init() }
        seen.insert(o)
    }

    func decide(context: PolicyContext) -> PolicyDecision {
        guard !failed, let p = process else { return .none }
        host.decisions.wrappingAdd(1, ordering: .relaxed)
        if plans != nil { return decideByPlans(context, p) }
        lastTime = context.now
        let reason = DecideReason(first: first, seen: seenAt == context.now ? seen : .init())
        let message = ExternalMessages.decide(context, reason: reason, observations: observations, sent: &sentPending)
        observations = ""
        first = false
        seen = .init()
        do {
            let reply = try roundTrip(message, p)
            if let fast = ExternalFastReplies.decision(reply, pending: context.pending) { return fast }
            return try Self.decision(ExternalReply.object(reply), pending: context.pending, now: context.now)
        } catch {
            return giveUp(error, message: "decide", at: context.now)
        }
    }

    /// A decision point in plan mode: the requests without a plan are
    /// asked for in one `plan` message (with the observations since the
    /// last message), then the plans decide; no message when every pending
    /// request has its plan.
    private func decideByPlans(_ context: PolicyContext, _ p: DecisionProcess) -> PolicyDecision {
        let asked = plans!.unplanned(context.pending)
        if !asked.isEmpty {
            lastTime = context.now
            let message = ExternalMessages.plan(now: context.now, observations: observations, requests: asked)
            observations = ""
            do {
                let reply = try roundTrip(message, p)
                let answer = try ExternalFastReplies.plans(reply, asked: asked, apps: appCount)
                    ?? ExternalPlans.parse(ExternalReply.object(reply), asked: asked, apps: appCount)
                plans!.keep(answer, for: asked)
            } catch {
                return giveUp(error, message: "plan", at: context.now)
            }
        }
        return plans!.decision(context)
    }

    /// The `decision` reply, checked against the pending requests.
    static func decision(_ o: [String: Any], pending: [TaskRequest], now: SimTime) throws(ExternalReply.Invalid) -> PolicyDecision {
        guard o["type"] as? String == "decision" else {
            throw ExternalReply.Invalid(#"answered with "type" \#(ExternalReply.show(o["type"])) instead of "decision""#)
        }
        var run: [RequestID] = []
        if let list = o["run"], !(list is NSNull) {
            guard let ids = list as? [Any] else { throw ExternalReply.Invalid(#""run" is \#(ExternalReply.show(list)), expected an array of request ids"#) }
            for v in ids {
                guard let n = v as? Int, let id = UInt32(exactly: n) else {
                    throw ExternalReply.Invalid(#""run" holds \#(ExternalReply.show(v)), expected request ids (whole numbers)"#)
                }
                guard pending.contains(where: { $0.id.rawValue == id }) else {
                    throw ExternalReply.Invalid(#"asked to run request \#(id), which is not pending (pending: \#(pending.map { String($0.id.rawValue) }.joined(separator: ", ")))"#)
                }
                run.append(RequestID(id))
            }
        }
        var all = false
        if let v = o["runAllEligible"], !(v is NSNull) {
            guard let b = v as? Bool else { throw ExternalReply.Invalid(#""runAllEligible" is \#(ExternalReply.show(v)), expected true or false"#) }
            all = b
        }
        var wake: SimTime? = nil
        if let v = o["wakeAt"], !(v is NSNull) {
            guard let n = v as? Int else { throw ExternalReply.Invalid(#""wakeAt" is \#(ExternalReply.show(v)), expected whole microseconds or null"#) }
            wake = SimTime(microseconds: Int64(n))
        }
        return PolicyDecision(run: run, runAllEligible: all, wakeAt: wake)
    }

    /// Sends `message` and waits for its one-line reply: one round trip of
    /// a decision point (counted in the host's `roundTrips`).
    private func roundTrip(_ message: String, _ p: DecisionProcess) throws(DecisionProcess.Failure) -> [UInt8] {
        let stop = { [host] in host.isStopped }
        try p.send(message, deadline: host.deadline(), stop: stop)
        let reply = try p.readLine(deadline: host.deadline(), stop: stop)
        host.roundTrips.wrappingAdd(1, ordering: .relaxed)
        return reply
    }

    /// After a failed exchange about `message`: stops quietly when the run
    /// is being interrupted (not a failure of the policy), else fails it.
    private func giveUp(_ error: any Error, message: String, at now: SimTime) -> PolicyDecision {
        if case .stopped? = error as? DecisionProcess.Failure {
            quit()
        } else {
            fail(host.problem(error, message: message, device: device, time: now))
        }
        return .none
    }

    private func fail(_ e: ExternalPolicyError) {
        host.fail(e)
        quit()
    }

    /// Stops talking to the process and kills it: after a failure, or when
    /// the run is interrupted (not a failure of the policy).
    private func quit() {
        failed = true
        if let p = process { host.discard(p) }
        process = nil
    }

    deinit {
        guard !failed, let p = process else { return }
        do {
            let stop = { [host] in host.isStopped }
            try p.send(ExternalMessages.end(now: lastTime, observations: observations), deadline: host.deadline(), stop: stop)
            let reply = try ExternalReply.object(p.readLine(deadline: host.deadline(), stop: stop))
            guard reply["type"] as? String == "ended" else {
                throw ExternalReply.Invalid(#"answered with "type" \#(ExternalReply.show(reply["type"])) instead of "ended""#)
            }
            host.checkIn(p)
        } catch DecisionProcess.Failure.stopped {
            host.discard(p)
        } catch {
            host.fail(host.problem(error, message: "end", device: device, time: lastTime))
            host.discard(p)
        }
    }
}
