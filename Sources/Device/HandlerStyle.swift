/// How an app's BGTask handlers (app refresh, processing, legacy fetch) are
/// written: the UIKit way, with a completion handler the app must call
/// (`setTaskCompleted`, the fetch completion handler), or SwiftUI's
/// `backgroundTask(_:action:)` scene modifier, whose async action completes
/// the task when it returns. Apple (SwiftUI, `backgroundTask(_:action:)`):
/// "The system considers the task completed when the action closure that
/// you provide returns. If the action closure has not returned when the
/// task runs out of time to complete, the system cancels the task."
/// Docs/Semantics.md, "SwiftUI handlers".
public enum HandlerStyle: String, Sendable, Hashable, Codable {
    /// A completion handler (the default): `neverCompletesProbability`
    /// applies; expiration ends the run at its budget.
    case completionHandler
    /// SwiftUI, cooperative: the run completes when its work returns (no
    /// forgotten completion: `neverCompletesProbability` does not apply);
    /// at the budget the cancellation stops the work (as an expiration).
    case swiftUICooperative
    /// SwiftUI, not cooperative: as above, but the work ignores the
    /// cancellation and runs on, until it returns or until the hard limit
    /// (budget + `DeviceConfiguration.cancellationGrace`), when the system
    /// kills the app. Past the budget the run is expired either way.
    case swiftUINonCooperative
}
