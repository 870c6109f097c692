import SimCore

/// One row of `events.csv`. Only built when a log is on.
public struct DeviceEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A foreground launch (fresh, age, since_refresh before the foreground fetch).
        case launch
        /// A content update published by the server.
        case update
        /// A background wake: a batch of tasks started (wake_j).
        case wake
        /// A task run (request, earliest begin, start, end, outcome, energy).
        case task
        /// A radio tail segment charged to background work (tail_j).
        case tail
        /// A device state change (detail names it).
        case state
        /// A run the policy asked for and the OS refused (detail = reason).
        case refused
        /// A request submitted (request id, earliest begin).
        case submitted
        /// A submission the OS rejected (detail = error).
        case rejected
        /// A handler that forgot to resubmit.
        case chainBreak = "chain_break"
        /// The user force-quit the app in the app switcher (at its session end).
        case forceQuit = "force_quit"
        /// The app cancelled a pending request (request id).
        case cancelled
        /// A silent push held, coalesced, dropped or delivered
        /// (detail says which; requested_us = the server's send time).
        case silentPush = "silent-push"
        /// A `beginBackgroundTask` run at a session end, logged at
        /// its end (detail: ended, expired or failed).
        case backgroundTask = "background-task"
        /// A background URLSession transfer handed, started,
        /// paused, completed, timed out, or its completion delivered (detail).
        case urlSession = "url-session"
        /// A continued-processing job started, queued, failed to
        /// start, dropped at a force-quit, completed, failed, cancelled by
        /// the user or expired under pressure (detail says which).
        case continuedProcessing = "continued-processing"
        /// A dead zone (connected, nothing gets through) started
        /// or ended; the device state is the network shown.
        case deadZoneStart = "dead_zone_start"
        case deadZoneEnd = "dead_zone_end"
        /// Android: a run left `app` out of its bucket's job quota (detail:
        /// the bucket); its work is held back until the quota frees
        /// (Docs/AndroidPlatform.md A12).
        case quotaExhausted = "quota_exhausted"
        /// Android: a Doze maintenance window opened (detail `light` or
        /// `deep`; A9).
        case dozeWindow = "doze_window"
    }
    public var kind: Kind
    public var time: SimTime
    public var app: Int32 = -1
    public var taskKind: TaskKind? = nil
    public var requestID: RequestID? = nil
    public var requestedAt: SimTime? = nil
    public var earliestBegin: SimTime? = nil
    public var start: SimTime? = nil
    public var end: SimTime? = nil
    public var outcome: TaskOutcome? = nil
    public var newData: Bool? = nil
    public var energy = EnergyLedger()
    public var fresh: Bool? = nil
    public var ageSeconds: Double? = nil
    public var sinceRefreshSeconds: Double? = nil
    public var device: DeviceState
    public var detail: String = ""

    /// Whether the row ends a background run of a mechanism (apps.csv's
    /// `mechanism_runs`): a background push delivery, any
    /// `beginBackgroundTask` row (logged at the run's end), a URLSession
    /// relaunch, a continued-processing job's end. A new mechanism's kind
    /// says here which of its rows end a run.
    public var endsMechanismRun: Bool {
        switch kind {
        case .silentPush: detail.hasPrefix("delivered")
        case .backgroundTask: true
        case .urlSession: detail == "relaunch"
        case .continuedProcessing: ["completed", "failed", "cancelled_by_user", "expired_pressure"].contains(detail)
        default: false
        }
    }

    public init(kind: Kind, time: SimTime, device: DeviceState) {
        self.kind = kind
        self.time = time
        self.device = device
    }

    /// Column names, units and meaning of `events.csv`, in order.
    public static let columns: [(name: String, unit: String, description: String)] = [
        ("time_us", "µs", "event time since trace start"),
        ("event", "", "launch, update, wake, task, tail, state, submitted, refused, rejected, chain_break, force_quit, cancelled, silent-push, background-task, url-session"),
        ("app", "index", "app number (-1: none)"),
        ("task_kind", "", "refresh, processing or fetch (task rows)"),
        ("request_id", "", "request number, unique per device"),
        ("requested_us", "µs", "when the request was submitted; silent-push: when the (first) push was sent"),
        ("earliest_begin_us", "µs", "the request's earliestBeginDate"),
        ("start_us", "µs", "task start"),
        ("end_us", "µs", "task end"),
        ("outcome", "", "success, failed or expired"),
        ("new_data", "bool", "successful refresh fetched at least one new update"),
        ("wake_j", "J", "wake-up overhead"),
        ("cpu_j", "J", "CPU energy"),
        ("promotion_j", "J", "radio promotion energy"),
        ("active_j", "J", "radio active energy"),
        ("tail_j", "J", "radio tail energy (tail rows)"),
        ("fresh", "bool", "launch: content fresh before the foreground fetch"),
        ("age_s", "s", "launch: content age (Cho & Garcia-Molina)"),
        ("since_refresh_s", "s", "launch: time since content was last fetched"),
        ("battery_pct", "%", "battery level"),
        ("charging", "bool", "plugged in"),
        ("network", "", "wifi, cellular or offline"),
        ("low_power", "bool", "Low Power Mode on"),
        ("screen", "bool", "screen on"),
        ("detail", "", "state change name, refusal reason, submit error, censored (task still running at the horizon), or never_completed (a task whose handler never called its completion handler)"),
    ]

    /// The header line of `events.csv`.
    public static var csvHeader: String { columns.map(\.name).joined(separator: ",") }

    /// This event as one CSV line (no newline). Empty fields for n/a.
    public var csvLine: String {
        func t(_ v: SimTime?) -> String { v.map { String($0.microseconds) } ?? "" }
        func b(_ v: Bool?) -> String { v.map { $0 ? "1" : "0" } ?? "" }
        func d(_ v: Double?) -> String { v.map { String($0) } ?? "" }
        let e = energy
        let fields: [String] = [
            String(time.microseconds), kind.rawValue, String(app), taskKind?.name ?? "",
            requestID.map { String($0.rawValue) } ?? "", t(requestedAt), t(earliestBegin), t(start), t(end),
            outcome?.name ?? "", b(newData), String(e.wake), String(e.cpu), String(e.promotion),
            String(e.active), String(e.tail), b(fresh), d(ageSeconds), d(sinceRefreshSeconds),
            String(device.batteryPercent), b(device.isCharging), device.network.name,
            b(device.isLowPowerMode), b(device.isScreenOn), detail,
        ]
        return fields.joined(separator: ",")
    }
}

/// Where the simulator sends its events. `isEnabled` is static so that the
/// simulator, specialised for `NoEventLog`, compiles the logging away.
public protocol DeviceEventSink {
    static var isEnabled: Bool { get }
    mutating func record(_ event: DeviceEvent)
    /// Per-app output: energy and bytes no row carries (defaults below do nothing).
    mutating func attribute(app: Int32, energy: EnergyLedger)
    mutating func attribute(app: Int32, bytes: Double, network: NetworkType)
}

/// The default: no log, no cost.
public struct NoEventLog: DeviceEventSink {
    public init() {}
    @inlinable public static var isEnabled: Bool { false }
    @inlinable public mutating func record(_ event: DeviceEvent) {}
}

/// Keeps every event in memory (tests, and the CSV writer of one user).
public struct EventRecorder: DeviceEventSink {
    public var events: [DeviceEvent] = []
    public init() {}
    public static var isEnabled: Bool { true }
    public mutating func record(_ event: DeviceEvent) { events.append(event) }

    /// The whole log as CSV text with a header.
    public var csv: String {
        var s = DeviceEvent.csvHeader + "\n"
        for e in events { s += e.csvLine; s += "\n" }
        return s
    }
}

// Per-app output (apps.csv): what a sink needs to attribute to an app that
// no events.csv row carries. Called only when `isEnabled`; the default does
// nothing, so `EventRecorder` (and events.csv) are unchanged.
extension DeviceEventSink {
    /// Background energy charged to `app` that is on no row: a background
    /// URLSession transfer's radio energy (promotion, active), and a silent
    /// push, `beginBackgroundTask` or continued-processing run still going
    /// at the horizon (its energy so far).
    public mutating func attribute(app: Int32, energy: EnergyLedger) {}
    /// Bytes (up + down) a background task of `app` moved on `network`
    /// (the network at the task's start), counted when `bg_bytes_*` counts them.
    public mutating func attribute(app: Int32, bytes: Double, network: NetworkType) {}
}
