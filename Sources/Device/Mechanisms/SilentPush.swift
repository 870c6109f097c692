import SimCore
import Traces

/// When an app's content server sends a background notification (a silent
/// push, `content-available: 1`): the server side of push. A per-app
/// parameter (`AppModel.silentPush`); default `.none` (the app does not
/// use push, as before push was modelled).
///
/// The server knows exactly when it publishes (the trace's content update
/// times), so every strategy is a pure function of those times
/// (``sendTimes(updates:horizon:)``). Docs/Mechanisms.md ("Silent push").
public enum PushStrategy: Sendable, Hashable {
    /// No pushes (pull only).
    case none
    /// A push at every update.
    case everyUpdate
    /// A push at an update unless one was sent less than `interval` before;
    /// the updates it skips are not pushed (the next push's fetch gets them).
    case atMostOnePer(SimDuration)
    /// At the first update not yet announced the server waits `window`,
    /// then sends one push for every update of that window.
    case coalesced(SimDuration)

    /// Whether the server ever pushes.
    public var pushes: Bool { self != .none }

    /// The server's send times, in order, for an app publishing at
    /// `updates` (sorted), before `horizon`.
    public func sendTimes(updates: [SimTime], horizon: SimTime) -> [SimTime] {
        var out: [SimTime] = []
        switch self {
        case .none:
            break
        case .everyUpdate:
            for u in updates where u < horizon { out.append(u) }
        case .atMostOnePer(let interval):
            for u in updates where u < horizon {
                if let last = out.last, u - last < interval { continue }
                out.append(u)
            }
        case .coalesced(let window):
            var i = 0
            while i < updates.count {
                let send = updates[i] + window
                if send >= horizon { break }
                out.append(send)
                // Every update up to the send is announced by it.
                while i < updates.count && updates[i] <= send { i += 1 }
            }
        }
        return out
    }

    /// JSON: `{"strategy": "none" | "every-update" | "at-most-one-per" |
    /// "coalesced", "interval": "30m", "window": "10m"}`.
    public var name: String {
        switch self {
        case .none: "none"
        case .everyUpdate: "every-update"
        case .atMostOnePer: "at-most-one-per"
        case .coalesced: "coalesced"
        }
    }
}

extension PushStrategy: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case strategy, interval, window }

    public init(from decoder: any Decoder) throws {
        try decoder.container(keyedBy: AnyCodingKey.self)
            .rejectUnknownKeys(known: Set(CodingKeys.allCases.map(\.stringValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .strategy)
        switch name {
        case "none": self = .none
        case "every-update": self = .everyUpdate
        case "at-most-one-per":
            guard c.contains(.interval) else {
                throw DecodingError.keyNotFound(CodingKeys.interval, .init(codingPath: c.codingPath,
                    debugDescription: "\"at-most-one-per\" needs \"interval\" (a duration such as \"30m\")"))
            }
            self = .atMostOnePer(try c.duration(.interval, default: .zero))
        case "coalesced":
            guard c.contains(.window) else {
                throw DecodingError.keyNotFound(CodingKeys.window, .init(codingPath: c.codingPath,
                    debugDescription: "\"coalesced\" needs \"window\" (a duration such as \"10m\")"))
            }
            self = .coalesced(try c.duration(.window, default: .zero))
        default:
            throw DecodingError.dataCorruptedError(forKey: .strategy, in: c, debugDescription:
                "unknown push strategy \"\(name)\"; expected one of none, every-update, at-most-one-per, coalesced")
        }
        if case .atMostOnePer = self {} else if c.contains(.interval) {
            throw DecodingError.dataCorruptedError(forKey: .interval, in: c,
                                                   debugDescription: "\"interval\" belongs to \"at-most-one-per\" only")
        }
        if case .coalesced = self {} else if c.contains(.window) {
            throw DecodingError.dataCorruptedError(forKey: .window, in: c,
                                                   debugDescription: "\"window\" belongs to \"coalesced\" only")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .strategy)
        switch self {
        case .atMostOnePer(let d): try c.encodeDuration(d, forKey: .interval)
        case .coalesced(let d): try c.encodeDuration(d, forKey: .window)
        case .none, .everyUpdate: break
        }
    }

    /// The strategy's duration (interval or window), if it has one: for validation.
    public var duration: SimDuration? {
        switch self {
        case .atMostOnePer(let d), .coalesced(let d): d
        case .none, .everyUpdate: nil
        }
    }
}

/// The OS side of silent push: how iOS throttles, holds and gates
/// background notifications, and how long a woken app may run. Part of
/// ``DeviceConfiguration`` (JSON key `silentPush`); every parameter is
/// documented in Docs/Mechanisms.md with its source.
public struct SilentPushRules: DeclaredParameters, Hashable {
    /// Background notifications delivered per app and hour in the long run
    /// (the refill rate of a per-app token bucket). Per hour, in (0, 3600];
    /// default 3. Source: Apple, "Pushing background updates to your App":
    /// "The number of background notifications allowed by the system
    /// depends on current conditions, but don't try to send more than two
    /// or three per hour." That the system's allowance equals the upper
    /// end of this advice, and takes the form of a token bucket, is an
    /// assumption (Apple publishes no mechanism).
    public var perHour: Double = 3
    /// Deliveries an app may receive back to back after a quiet period (the
    /// bucket's capacity; it starts full). Count, in [1, 100]; default 3
    /// (assumption: one hour's allowance).
    public var burst: Double = 3
    /// How long a woken app may run to fetch and call the completion
    /// handler; past it the run is expired. Duration in (0, 10 min];
    /// default 30 s. Source: Apple,
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`:
    /// "Your app has up to 30 seconds of wall-clock time to process the
    /// notification and call the specified completion handler block."
    public var handlerBudget: SimDuration = .seconds(30 as Int64)

    public init() {}

    /// The JSON keys under `device.silentPush`. The rate starts above 0 (a
    /// zero rate would hold every push for ever) and is capped at one a second.
    public static let parameters: [Parameter<SilentPushRules>] = [
        .real("perHour", \.perHour, ValueRange(0, 3_600, lowerOpen: true, unit: "/h"),
              source: "Apple, Pushing background updates to your App (\"two or three per hour\"); the bucket: assumption"),
        .real("burst", \.burst, ValueRange(1, 100), source: "assumption (one hour's allowance)"),
        .duration("handlerBudget", \.handlerBudget, .seconds(0, 600, open: true),
                  source: "Apple, application(_:didReceiveRemoteNotification:fetchCompletionHandler:) (30 s)"),
    ]
}

/// Per-user silent-push counts and energy (`UserMetrics.silentPush`; their
/// `runs.csv` columns: ``MechanismMetrics/columns``).
public enum SilentPushMetric: MetricGroup {
    /// Deliveries: background (a coalesced delivery counts once) and
    /// foreground; handler runs by outcome; `heldAtEnd`: never delivered.
    public enum Count: Int, CaseIterable, Sendable {
        case sent, deliveredBackground, deliveredForeground, coalesced, dropped, heldAtEnd
        case succeeded, failed, expired, newData
    }
    /// `energyJoules`: wake, promotion, active, CPU (tails are in
    /// `energy_tail_j` with every other tail); `delaySumSeconds`: over
    /// deliveries, from the first push they announce to the delivery.
    public enum Sum: Int, CaseIterable, Sendable { case energyJoules, delaySumSeconds }
}
public typealias SilentPushMetrics = MetricCounters<SilentPushMetric>
