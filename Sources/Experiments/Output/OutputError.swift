/// An error writing results (exit 74, EX_IOERR): the path and the system's
/// reason (`strerror(errno)`: "No space left on device", "Read-only file
/// system", "Not a directory", ...), or why the target is refused.
public struct OutputError: Error, CustomStringConvertible {
    public let path: String
    public let message: String
    /// True when the target was refused before anything was written (exists
    /// without `--force`, or lies inside an input): a usage error, exit 64.
    public let refused: Bool

    public init(path: String, message: String, refused: Bool = false) {
        self.path = path
        self.message = message
        self.refused = refused
    }

    public var description: String { "\(path): \(message)" }
}
