import Synchronization

/// Something a policy holds outside the simulated device that must be
/// cleaned up after a run, and that can fail the run: the `external`
/// policy's decision processes. A policy's `make` closure hands one over
/// with ``PolicyParameterValues/own(_:)``; whoever runs the policy (the
/// Experiments runner) then:
/// 1. calls ``watch(stop:)`` before the first simulation, so that a resource
///    waiting on something outside stops waiting once the run is interrupted;
/// 2. stops the run when ``failure`` becomes non-nil, and reports it;
/// 3. calls ``shutDown()`` exactly once on every path (done, failed,
///    interrupted), which must leave nothing running.
///
/// Why a separate channel: `observe` and `decide` cannot throw (a policy in
/// Swift has no reason to fail), so a policy whose decisions come from
/// outside records the failure here and answers "do nothing" until the
/// runner stops.
public protocol PolicyResource: AnyObject, Sendable {
    func watch(stop: @escaping @Sendable () -> Bool)
    /// The first failure, if any (the run must then write nothing).
    var failure: (any Error)? { get }
    func shutDown()
}

/// Collects the resources of one `PolicyRegistry.make` call.
final class PolicyResourceCollector: Sendable {
    private let items = Mutex<[any PolicyResource]>([])
    func add(_ r: any PolicyResource) { items.withLock { $0.append(r) } }
    var resources: [any PolicyResource] { items.withLock { $0 } }
}
