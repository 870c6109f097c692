import Foundation
import SimCore
import Synchronization

/// The decision processes of one `external` configuration: a pool with at
/// most one process per worker thread, each serving one simulated device at
/// a time (a `start` … `end` conversation) and then the next.
///
/// Why per worker and not per device: starting a Python interpreter costs
/// tens of milliseconds, more than simulating a user-week. Why the result
/// does not depend on it: a process must forget everything at `start`
/// (the reference client builds a fresh policy object per device), so each
/// device's decisions depend only on its own messages, whatever process
/// serves it and whichever devices that process served before.
/// (`ExternalPolicyTests` checks 1 and 2 threads give the same bytes.)
///
/// The host is the policy's ``PolicyResource``: the first failure of any
/// process is kept here (the runner stops and reports it), and
/// ``shutDown()`` ends every process on every path.
final class ExternalDecisionHost: PolicyResource, @unchecked Sendable {
    let command: [String]
    let timeout: Duration
    /// The spec's other parameters, passed through in every `start`.
    let params: [String: ParameterValue]

    private let idle = Mutex<[DecisionProcess]>([])
    private let live = Mutex<[ObjectIdentifier: DecisionProcess]>([:])
    private let firstFailure = Mutex<ExternalPolicyError?>(nil)
    /// The run's stop condition, set once by `watch` and read at every
    /// wait. Boxed in a class, not kept in the mutex as a closure: a
    /// function value read through `Mutex.withLock`'s generic `inout`
    /// argument is written back wrapped in two reabstraction thunks, so
    /// each read made the stored closure one call deeper; after ~300,000
    /// decisions calling it, and finally releasing it, overflowed the
    /// stack (`ExternalPolicyTests.testStopCheckDoesNotDeepenPerDecision`).
    private let stopCheck = Mutex<StopCondition?>(nil)
    /// Decision points at which the policy was consulted (the benchmark's
    /// decision points; in plan mode most are answered from kept plans).
    let decisions = Atomic<Int>(0)
    /// Round trips to the processes after the handshake (`decide` and
    /// `plan` messages; not `end`).
    let roundTrips = Atomic<Int>(0)
    /// What the processes declared in their `hello` (nil before the first).
    private let declaration = Mutex<ExternalDeclaration?>(nil)

    init(command: [String], timeout: Duration, params: [String: ParameterValue]) {
        self.command = command
        self.timeout = timeout
        self.params = params
    }

    // MARK: PolicyResource

    func watch(stop: @escaping @Sendable () -> Bool) {
        let condition = StopCondition(stop)
        stopCheck.withLock { $0 = condition }
    }

    var failure: (any Error)? { firstFailure.withLock { $0 } }

    func shutDown() {
        let all = live.withLock { l in
            defer { l.removeAll() }
            return Array(l.values)
        }
        idle.withLock { $0.removeAll() }
        for p in all { p.finish(bye: ExternalMessages.bye) }
    }

    // MARK: For sessions

    var hasFailed: Bool { firstFailure.withLock { $0 != nil } }

    var isStopped: Bool { stopCheck.withLock { $0 }?.isMet() ?? false }

    /// Keeps the first failure; later ones are consequences.
    func fail(_ error: ExternalPolicyError) {
        firstFailure.withLock { if $0 == nil { $0 = error } }
    }

    func deadline() -> ContinuousClock.Instant { .now + timeout }

    /// What this configuration's processes declare: read from the first
    /// one's `hello`, starting one (kept for the first device) if none has
    /// run yet. Nil if it cannot be started or answered wrongly (the
    /// failure is kept, and the run stops with it).
    func declared() -> ExternalDeclaration? {
        if let d = declaration.withLock({ $0 }) { return d }
        guard !hasFailed else { return nil }
        do {
            checkIn(try checkOut())
        } catch let e as ExternalPolicyError {
            fail(e)
        } catch {
            return nil
        }
        return declaration.withLock { $0 }
    }

    /// An idle process, or a new one after the handshake. Throws an
    /// ``ExternalPolicyError``, or `DecisionProcess.Failure.stopped` when the
    /// run is being interrupted.
    func checkOut() throws -> DecisionProcess {
        if let p = idle.withLock({ $0.popLast() }) { return p }
        let process: DecisionProcess
        do { process = try DecisionProcess(argv: command) } catch {
            throw problem(error, message: "hello", device: nil, time: nil)
        }
        live.withLock { $0[ObjectIdentifier(process)] = process }
        do {
            let stop = { [self] in isStopped }
            try process.send(ExternalMessages.hello, deadline: deadline(), stop: stop)
            let reply = try process.readLine(deadline: deadline(), stop: stop)
            let object = try ExternalReply.object(reply)
            guard object["type"] as? String == "hello" else {
                throw ExternalReply.Invalid(#"answered with "type" \#(ExternalReply.show(object["type"])) instead of "hello""#)
            }
            guard let v = object["protocol"] as? Int, v == ExternalMessages.version else {
                throw ExternalReply.Invalid("speaks protocol version \(ExternalReply.show(object["protocol"])); this bgbench speaks \(ExternalMessages.version)")
            }
            let declared = try ExternalDeclaration(hello: object)
            // The first process's declaration is the configuration's (the
            // simulator has read it for the devices already running); a
            // process of the same command that declares otherwise is an error.
            let first = declaration.withLock { d in
                if d == nil { d = declared }
                return d!
            }
            guard declared == first else {
                throw ExternalReply.Invalid("declared {\(declared.summary)} in its hello, but an earlier process of the same command declared {\(first.summary)}")
            }
            process.declaration = declared
        } catch DecisionProcess.Failure.stopped {
            discard(process)
            throw DecisionProcess.Failure.stopped
        } catch {
            discard(process)
            throw problem(error, message: "hello", device: nil, time: nil)
        }
        return process
    }

    func checkIn(_ p: DecisionProcess) { idle.withLock { $0.append(p) } }

    /// Kills a process that failed (or whose conversation was cut short).
    func discard(_ p: DecisionProcess) {
        live.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(p)) }
        p.terminate()
    }

    /// The error for a failed exchange.
    func problem(_ error: any Error, message: String, device: SimulatedDevice?, time: SimTime?) -> ExternalPolicyError {
        let what: String
        switch error {
        case let e as DecisionProcess.Failure:
            switch e {
            case .exited(let status): what = status == "closed its output" ? "closed its output" : status
            case .timedOut: what = "did not answer within the timeout of \(timeout) (parameter \"timeout\")"
            case .stopped: what = "was stopped: the run was interrupted"
            case .system(let s): what = "could not be run: \(s)"
            case .lineTooLong: what = "wrote a reply line longer than \(DecisionProcess.maximumLineBytes) bytes, the most a line of any input may have (the rest was not read)"
            }
        case let e as ExternalReply.Invalid: what = e.problem
        default: what = "\(error)"
        }
        return ExternalPolicyError(command: command, message: message, device: device, time: time, problem: what)
    }
}

/// A stop closure behind a class reference (see `stopCheck`).
final class StopCondition: Sendable {
    let isMet: @Sendable () -> Bool
    init(_ isMet: @escaping @Sendable () -> Bool) { self.isMet = isMet }
}

/// Reading a process's reply line.
enum ExternalReply {
    struct Invalid: Error { let problem: String; init(_ p: String) { problem = p } }

    /// The reply as a JSON object, or why it is not one.
    static func object(_ line: [UInt8]) throws(Invalid) -> [String: Any] {
        let text = String(decoding: line, as: UTF8.self)
        guard let value = try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed]) else {
            throw Invalid("wrote a line that is not JSON: \(excerpt(text))")
        }
        guard let object = value as? [String: Any] else {
            throw Invalid("wrote JSON that is not an object: \(excerpt(text))")
        }
        if object["type"] as? String == "error" {
            throw Invalid("reported an error: \(object["message"].map { "\($0)" } ?? excerpt(text))")
        }
        return object
    }

    static func excerpt(_ s: String) -> String {
        let cut = s.count > 200 ? String(s.prefix(200)) + "…" : s
        return "'" + cut + "'"
    }

    static func show(_ v: Any?) -> String {
        guard let v else { return "(missing)" }
        if let s = v as? String { return "\"\(s)\"" }
        return "\(v)"
    }
}
