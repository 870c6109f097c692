/// A failure while running a well-formed command, with its exit status.
struct CommandFailure: Error {
    let message: String
    let exitCode: Int32

    /// Bad input data: a malformed spec, trace set or result file (EX_DATAERR).
    static func badInput(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 65) }
    /// Interrupted by the user: outputs were not written.
    static func interrupted() -> CommandFailure {
        CommandFailure(message: "interrupted; no output was written", exitCode: 130)
    }
}
