@_spi(BuiltInPolicies) import Device
@_spi(BuiltInPolicies) import Policies
import SimCore
import XCTest

/// `PolicyConformance.check` catches a declaration to the simulator that
/// contradicts what the policy does: every check world is also run with
/// every observation delivered, and any difference is reported.
final class DeclarationCheckTests: XCTestCase {
    /// Reads task reports (it runs app a's requests only once a task of
    /// app a − 1 has finished; app 0's always), but declares that it
    /// observes nothing: the simulator then never tells it of a finished
    /// task, and it runs far less than it would.
    struct ReadsReportsDeclaresNone: SchedulingPolicy {
        static var traits: PolicyTraits { PolicyTraits(observedKinds: []) }
        var finished: Set<Int32> = []
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) {
            if case .taskFinished(let r) = o { finished.insert(r.request.app) }
        }
        func decide(context: PolicyContext) -> PolicyDecision {
            let run = context.pending.filter { context.isEligible($0) && ($0.app == 0 || finished.contains($0.app - 1)) }
            return PolicyDecision(run: run.map(\.id), wakeAt: context.now + .minutes(30))
        }
    }

    /// The same policy without the false declaration.
    struct ReadsReports: SchedulingPolicy {
        var inner = ReadsReportsDeclaresNone()
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) { inner.observe(o, context: context) }
        func decide(context: PolicyContext) -> PolicyDecision { inner.decide(context: context) }
    }

    func testAFalseObservedKindsIsReported() {
        let problems = PolicyConformance.check(ReadsReportsDeclaresNone())
        XCTAssertFalse(problems.isEmpty, "the false declaration went unnoticed")
        XCTAssertTrue(problems.contains { $0.problem.contains("every observation delivered")
                                          && $0.problem.contains("observedKinds []") }, "\(problems)")
        XCTAssertEqual(PolicyConformance.check(ReadsReports()), [])
        // (PolicyBehaviourTests checks the built-in policies' declarations.)
    }
}
