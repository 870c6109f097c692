internal import CGSL

/// A failure reported by GSL, as a Swift error.
///
/// GSL's default error handler aborts the process. BGBench switches it off
/// once (``GSL/prepare()``), so every GSL function reports failure through its
/// integer status, and every status goes through ``GSL/check(_:_:)``.
public struct GSLError: Error, CustomStringConvertible, Equatable {
    /// GSL's status code (`GSL_EDOM`, `GSL_EINVAL`, ...).
    public let status: Int32
    /// What BGBench was doing when GSL failed.
    public let operation: String

    public var description: String {
        let reason = String(cString: gsl_strerror(status))
        return "GSL error \(status) (\(reason)) in \(operation)"
    }
}

/// The single place where BGBench talks to GSL's error machinery.
enum GSL {
    /// Switches GSL's abort-on-error handler off. Swift runs a global's
    /// initializer exactly once, thread-safely, on first use.
    private static let handlerDisabled: Bool = {
        cgsl_disable_abort_handler()
        return true
    }()

    /// Call before the first GSL call of any entry point.
    @inline(__always)
    static func prepare() {
        _ = handlerDisabled
    }

    /// Turns a GSL status code into a thrown ``GSLError``; `GSL_SUCCESS` passes.
    @inline(__always)
    static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(GSLError) {
        if status != Int32(GSL_SUCCESS) {
            throw GSLError(status: status, operation: operation())
        }
    }
}
