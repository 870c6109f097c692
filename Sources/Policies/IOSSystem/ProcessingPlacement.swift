import Device
import SimCore

/// Where `ios-system` places processing tasks: idle, charging periods
/// (typically at night), and only for apps the user opened recently.
///
/// Sources: WWDC 2019 "Advances in App Background Execution" (session 707)
/// introduces `BGProcessingTask` for deferrable work (maintenance, machine
/// learning) run "at system-friendly times", e.g. when the device is
/// charging; WWDC 2020 "Background execution demystified" (session 10063)
/// says the app-usage factor applies to them too. The idle delay and the
/// recency window are assumptions (Apple publishes neither).
///
/// Rule: a processing request runs only while the device charges, the
/// screen is off and has been off for at least `processingIdle` (since the
/// last session ended), and its app was launched within `processingRecency`.
/// All processing waits for the charger here, even requests that do not
/// require external power (assumption: the system prefers the charger for
/// deferrable work).
///
/// Parameters:
/// - `processingIdle` (duration > 0, default 30m; assumption).
/// - `processingRecency` (duration > 0, default 7d; assumption).
public struct ProcessingPlacement: Sendable, Hashable {
    public var idle: SimDuration
    public var recency: SimDuration

    public init(idle: SimDuration = .minutes(30), recency: SimDuration = .days(7)) {
        self.idle = idle
        self.recency = recency
    }

    /// When the device has been idle long enough (nil: not idle or not charging).
    func idleFrom(_ context: PolicyContext) -> SimTime? {
        guard context.device.isCharging, !context.device.isScreenOn else { return nil }
        return (context.lastSessionEnd ?? .zero) + idle
    }

    /// Whether the app's processing may run now (the OS rules aside).
    public func allows(app: Int, context: PolicyContext, usage: UsagePriority) -> Bool {
        guard let from = idleFrom(context), context.now >= from,
              let last = usage.lastLaunch(app: app) else { return false }
        return context.now - last <= recency
    }

    /// When to look again for processing (the idle delay ending); charging
    /// and screen changes are decision points anyway.
    func wake(_ context: PolicyContext) -> SimTime? {
        guard let from = idleFrom(context), from > context.now else { return nil }
        return from
    }
}
