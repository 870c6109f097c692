import SimCore

/// Why the `external` policy stopped a run: which policy (its command),
/// which message it was answering, for which simulated user at which
/// simulated time, and what went wrong. The run then writes nothing
/// (`bgbench run` exits 65, like any bad input).
public struct ExternalPolicyError: Error, Sendable, CustomStringConvertible {
    /// The policy's `command`.
    public var command: [String]
    /// The message bgbench sent and was waiting on (`hello`, `decide`, `end`).
    public var message: String
    /// The simulated device (nil during the handshake, before any device).
    public var device: SimulatedDevice?
    /// Simulated time of the message (nil for `hello`).
    public var time: SimTime?
    public var problem: String

    public var description: String {
        var s = "external policy \(command.map { "\"\($0)\"" }.joined(separator: " ")): the decision process \(problem)"
        s += ", in reply to the \"\(message)\" message"
        if let time { s += " at simulated time \(time) (\(time.microseconds) µs)" }
        if let device { s += " for \(device)" }
        return s
    }
}
