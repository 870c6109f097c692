@_spi(BuiltInPolicies) import Device
import SimCore

/// Checks any policy (a researcher's new one too) against what every policy
/// must do: never ask for a run the OS must refuse, be deterministic for the
/// same inputs, cope with empty and extreme states without busy-looping,
/// and behave the same with every observation delivered and `decide`
/// asked at every decision point as with its traits (and plans) honoured.
///
///     XCTAssertEqual(PolicyConformance.check(MyPolicy()), [])
public enum PolicyConformance {
    /// One broken expectation, in one scenario.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        public var scenario: String
        public var problem: String
        public var description: String { "\(scenario): \(problem)" }
    }

    /// Events allowed per simulated day before the policy is said to busy-loop.
    public static let eventsPerDayLimit = 200_000

    /// Runs `policy` through every scenario (twice each, and once more with
    /// every observation delivered) and returns what it got wrong.
    public static func check<P: SchedulingPolicy>(_ policy: P) -> [Violation] {
        var violations: [Violation] = []
        for (name, trace, config) in scenarios() {
            func once() -> (UserMetrics, Bool) {
                var sim = DeviceSimulator(trace: trace, configuration: config, policy: policy,
                                          randomKey: 0x5EED, sink: NoEventLog())
                sim.eventLimit = eventsPerDayLimit * max(1, trace.horizon.day)
                let m = sim.run()
                return (m, sim.hitEventLimit)
            }
            let (a, limited) = once()
            let (b, _) = once()
            if limited {
                violations.append(.init(scenario: name, problem: "more than \(eventsPerDayLimit) events a day: the policy busy-loops"))
            }
            if a.tasksRefused > 0 {
                let reasons = Refusal.allCases.filter { a.refusalsByReason[Int($0.rawValue)] > 0 }.map(\.name)
                violations.append(.init(scenario: name,
                    problem: "asked for \(a.tasksRefused) runs the OS refused (\(reasons.joined(separator: ", ")))"))
            }
            let differs = UserMetrics.columns.contains { c in
                let x = c.value(a), y = c.value(b)
                return !(x == y || (x.isNaN && y.isNaN))
            }
            if differs { violations.append(.init(scenario: name, problem: "not deterministic: two runs differ")) }
            if P.planScope != nil {
                // A planning policy: the simulator keeps its plans; asked
                // through `decide` at every decision point instead, it must
                // run the same simulation.
                var asked = DeviceSimulator(trace: trace, configuration: config, policy: DecideEveryTime(base: policy),
                                            randomKey: 0x5EED, sink: NoEventLog())
                asked.eventLimit = eventsPerDayLimit * max(1, trace.horizon.day)
                let c = asked.run()
                let plansDiffer = UserMetrics.columns.contains { col in
                    let x = col.value(a), y = col.value(c)
                    return !(x == y || (x.isNaN && y.isNaN))
                }
                if plansDiffer {
                    violations.append(.init(scenario: name, problem:
                        "kept plans decide otherwise than `decide`: a plan reads state that changes outside `observe`, "
                        + "or `planningScope` is narrower than what an observation changes"))
                }
            }
            // Every observation delivered and `decide` asked at every
            // decision point (no kept plans): a policy's declarations to
            // the simulator (`traits.observedKinds`, planning) may only save
            // work, never change what it does.
            var delivered = DeviceSimulator(trace: trace, configuration: config, policy: DecideEveryTime(base: policy),
                                            randomKey: 0x5EED, sink: NoEventLog())
            delivered.deliverEveryObservation()
            delivered.eventLimit = eventsPerDayLimit * max(1, trace.horizon.day)
            let e = delivered.run()
            if let column = firstDifference(a, e) {
                violations.append(.init(scenario: name, problem:
                    "runs otherwise with every observation delivered and `decide` asked at every decision point "
                    + "(\(column.name): \(column.value(a)) as declared, \(column.value(e)) with everything delivered): "
                    + "observe reads a kind it declares it ignores (observedKinds \(P.traits.observedKinds.names))"
                    + (P.planScope == nil ? "" : ", or its plans depend on more than they declare")))
            }
        }
        violations += checkExtremeContexts(policy)
        return violations
    }

    /// The first metrics column in which `a` and `b` differ (NaN equals NaN).
    static func firstDifference(_ a: UserMetrics, _ b: UserMetrics) -> UserMetrics.Column? {
        UserMetrics.columns.first { c in
            let x = c.value(a), y = c.value(b)
            return !(x == y || (x.isNaN && y.isNaN))
        }
    }

    /// `base` behind a box that is not a planning policy, so that the
    /// simulator calls its (derived) `decide` at every decision point
    /// instead of keeping its plans: the reference the kept plans are
    /// checked against.
    struct DecideEveryTime<Base: SchedulingPolicy>: SchedulingPolicy {
        static var traits: PolicyTraits { Base.traits }
        var instanceTraits: PolicyTraits { base.instanceTraits }
        var base: Base
        mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
            base.observe(observation, context: context)
        }
        mutating func decide(context: PolicyContext) -> PolicyDecision { base.decide(context: context) }
    }

    /// Direct calls with degenerate contexts: nothing pending, dead battery,
    /// far future; the policy must not ask for anything ineligible.
    static func checkExtremeContexts<P: SchedulingPolicy>(_ policy: P) -> [Violation] {
        var out: [Violation] = []
        let far = SimTime(day: 100_000)
        let request = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: .appRefresh,
                                  earliestBegin: far + .hours(1), submittedAt: .zero)
        let contexts: [(String, PolicyContext)] = [
            ("empty context", PolicyContext(now: .zero, device: DeviceState(), appCount: 0)),
            ("dead battery", PolicyContext(now: .zero, device: DeviceState(batteryPercent: 0, isLowPowerMode: true, network: .offline),
                                           pending: [request], appCount: 1)),
            ("far future, not yet eligible", PolicyContext(now: far, device: DeviceState(), pending: [request], appCount: 1)),
        ]
        for (name, ctx) in contexts {
            var p = policy
            p.observe(.launch(app: 0), context: ctx)
            let d = p.decide(context: ctx)
            for id in d.run {
                guard let r = ctx.pending.first(where: { $0.id == id }) else {
                    out.append(.init(scenario: name, problem: "asked for \(id), which is not pending")); continue
                }
                if let why = ctx.refusal(for: r) { out.append(.init(scenario: name, problem: "asked for \(id): \(why.name)")) }
            }
        }
        return out
    }

    /// Small hand-made worlds covering ordinary and extreme states.
    static func scenarios() -> [(String, DeviceTrace, DeviceConfiguration)] {
        let day = SimTime(day: 1)
        func at(_ h: Double) -> SimTime { SimTime.zero + .seconds(h * 3600) }
        var sessions: [DeviceTrace.Session] = []
        for d in 0..<2 {
            for h in stride(from: 7.0, to: 23.0, by: 1.5) {
                let s = at(Double(d) * 24 + h)
                sessions.append(.init(start: s, end: s + .seconds(90 as Int64), app: Int32(sessions.count % 3)))
            }
        }
        var updates: [[SimTime]] = [[], [], []]
        for a in 0..<3 { updates[a] = stride(from: 0.3, to: 48.0, by: Double(a + 1) * 0.7).map(at) }
        let network: [DeviceTrace.Network] = [
            .init(start: .zero, end: at(8), kind: .wifi), .init(start: at(8), end: at(9), kind: .offline),
            .init(start: at(9), end: at(18), kind: .cellular), .init(start: at(18), end: at(48), kind: .wifi),
        ]
        let typical = DeviceTrace(horizon: SimTime(day: 2), appNames: ["news", "mail", "social"], sessions: sessions,
                                  charging: [.init(start: at(0), end: at(6)), .init(start: at(23), end: at(30))],
                                  network: network, contentUpdates: updates)
        var withProcessing = DeviceConfiguration()
        withProcessing.defaultApp = AppModel(processingInterval: .hours(6), processingRequiresExternalPower: false)
        var failing = DeviceConfiguration()
        failing.defaultApp.refresh.failureProbabilityWifi = 0.5
        failing.defaultApp.refresh.failureProbabilityCellular = 0.5
        failing.defaultApp.forgetProbability = 0.3
        var lowBattery = typical
        lowBattery.initialBatteryPercent = 22
        lowBattery.idleDrainWatts = 0.5
        lowBattery.charging = []
        lowBattery.lowPowerAccepted = [[true, true], [false, false]]
        var offline = typical
        offline.network = []
        var screenAlwaysOn = typical
        screenAlwaysOn.sessions = [.init(start: .zero, end: day, app: 0)]
        let empty = DeviceTrace(horizon: day, appNames: [])
        var dead = typical
        dead.initialBatteryPercent = 0
        dead.charging = []
        return [
            ("typical", typical, DeviceConfiguration()),
            ("processing tasks", typical, withProcessing),
            ("failing and forgetful apps", typical, failing),
            ("low battery, Low Power Mode", lowBattery, DeviceConfiguration()),
            ("always offline", offline, DeviceConfiguration()),
            ("screen always on", screenAlwaysOn, withProcessing),
            ("no apps", empty, DeviceConfiguration()),
            ("dead battery", dead, DeviceConfiguration()),
        ]
    }
}
