import Device
import SimCore
import XCTest

/// Decision points at session start: for policies that observe launches or
/// declare `traits.decidesAtSessionStart`, not for the others.
final class SessionStartDecisionTests: XCTestCase {
    struct Clock<Flags: PolicyFlags>: SchedulingPolicy {
        static var traits: PolicyTraits { PolicyTraits(observedKinds: Flags.observes, decidesAtSessionStart: Flags.atStart) }
        var decisions: [SimTime] = []
        mutating func decide(context: PolicyContext) -> PolicyDecision {
            decisions.append(context.now)
            return .none
        }
    }
    protocol PolicyFlags { static var observes: ObservationKinds { get }; static var atStart: Bool { get } }
    enum Launches: PolicyFlags { static let observes: ObservationKinds = .launch; static let atStart = false }
    enum Nothing: PolicyFlags { static let observes: ObservationKinds = []; static let atStart = false }
    enum AsksForIt: PolicyFlags { static let observes: ObservationKinds = []; static let atStart = true }

    let starts = [SimTime(day: 0, plus: .hours(1)), SimTime(day: 0, plus: .hours(3))]

    func decisions<F: PolicyFlags>(_: F.Type) -> [SimTime] {
        var sim = DeviceSimulator(trace: flatTrace(days: 1, sessions: sessions(at: starts)), configuration: DeviceConfiguration(),
                                  policy: Clock<F>(), randomKey: 1, sink: NoEventLog())
        _ = sim.run()
        return sim.policy.decisions
    }

    func testConsultedAtSessionStartOnlyWhenObservingLaunchesOrAsking() {
        for s in starts {
            XCTAssertTrue(decisions(Launches.self).contains(s))
            XCTAssertTrue(decisions(AsksForIt.self).contains(s))
            XCTAssertFalse(decisions(Nothing.self).contains(s))
        }
        // And through the existential path (`simulateDeviceWithLog` boxes the
        // policy): every decision asks for an unknown request, so the
        // refused rows mark the decision times.
        struct AsksUnknown: SchedulingPolicy {
            static var traits: PolicyTraits { PolicyTraits(observedKinds: [], decidesAtSessionStart: true) }
            func decide(context: PolicyContext) -> PolicyDecision { PolicyDecision(run: [RequestID(999_999)]) }
        }
        let (_, log) = simulateDeviceWithLog(trace: flatTrace(days: 1, sessions: sessions(at: starts)), policy: AsksUnknown(), randomKey: 1)
        let refusedAt = Set(log.events.filter { $0.kind == .refused }.map(\.time))
        for s in starts { XCTAssertTrue(refusedAt.contains(s)) }
    }
}
