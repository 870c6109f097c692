/// Checks before a run that a decision process starts and speaks the
/// protocol: `bgbench validate` and `bgbench run` start each `external`
/// configuration's command once, exchange `hello`, say `bye` and reap it,
/// so that a missing script or an interpreter of the wrong version is an
/// input error before anything is simulated, not a failure an hour in.
public enum DecisionProcessCheck {
    /// Nil when `command` started and answered `hello` with this bgbench's
    /// protocol version within `timeout`; otherwise what went wrong, worded
    /// as the rest of a sentence that starts "the decision process ...".
    public static func handshake(command: [String], timeout: Duration) -> String? {
        let host = ExternalDecisionHost(command: command, timeout: timeout, params: [:])
        host.watch(stop: { false })
        defer { host.shutDown() }
        do {
            let process = try host.checkOut()
            host.checkIn(process)
            return nil
        } catch let e as ExternalPolicyError {
            return e.problem
        } catch {
            return "\(error)"
        }
    }

    /// The protocol version this bgbench speaks (for messages and records).
    public static var protocolVersion: Int { ExternalMessages.version }
}
