import Traces
import Device
import SimCore

/// The JSON of the messages bgbench sends to a decision process
/// (Docs/ExternalPolicyProtocol.md, field by field). Written by hand, one
/// line per message, keys in a fixed order: the same simulation sends the
/// same bytes.
enum ExternalMessages {
    /// The protocol version this bgbench speaks; a process must answer the
    /// `hello` with the same.
    static let version = 1

    static let hello = #"{"type":"hello","protocol":\#(version)}"#

    static let bye = #"{"type":"bye"}"#

    /// `platform`: nil on iOS (the message as before Android), else the
    /// platform's name after `params`.
    static func start(device: SimulatedDevice?, appCount: Int, params: [String: ParameterValue],
                      platform: DevicePlatform? = nil) -> String {
        let d = device.map { #"{"user":\#($0.user),"replication":\#($0.replication),"configuration":\#(string($0.configuration))}"# } ?? "null"
        let p = platform.map { #","platform":"\#($0.rawValue)""# } ?? ""
        return #"{"type":"start","device":\#(d),"apps":\#(appCount),"params":\#(json(.object(params)))\#(p)}"#
    }

    static func end(now: SimTime?, observations: String) -> String {
        #"{"type":"end","now":\#(now.map { String($0.microseconds) } ?? "null"),"observations":[\#(observations)]}"#
    }

    /// A decision point: what `decide(context:)` sees, plus why it is one
    /// and the observations since the previous message.
    ///
    /// `sent`: nil for a process that takes the whole pending list in every
    /// `decide`; for one that asked for `"pending":"delta"` in its `hello`,
    /// the ids of the pending list as the process holds it (from the
    /// previous `decide` of this device; empty at its first), updated here.
    static func decide(_ c: PolicyContext, reason: DecideReason, observations: String,
                       sent: inout [RequestID]?) -> String {
        var s = #"{"type":"decide","now":\#(c.now.microseconds),"reason":"\#(reason.rawValue)","observations":[\#(observations)],"device":\#(device(c.device))"#
        if sent != nil {
            s += pendingDelta(c, sent: &sent!)
        } else {
            s += #","pending":["#
            for (i, r) in c.pending.enumerated() {
                if i > 0 { s += "," }
                s += request(r, refusal: c.refusal(for: r), android: c)
            }
            s += "]"
        }
        s += #","radioUpUntil":\#(time(c.radioUpUntil)),"lastSessionEnd":\#(time(c.lastSessionEnd))"#
        s += #","backgroundJoules":\#(number(c.backgroundJoules)),"refreshBudget":\#(c.refreshBudget.microseconds)"#
        // Android only (an iOS message is as before): what Doze does now.
        if c.android != nil { s += #","dozeDefers":\#(c.dozeDefersWork)"# }
        return s + "}"
    }

    /// Plan mode: the plans wanted for `requests` (pending, without a plan),
    /// with the observations since the previous message.
    static func plan(now: SimTime, observations: String, requests: [TaskRequest]) -> String {
        var s = #"{"type":"plan","now":\#(now.microseconds),"observations":[\#(observations)],"requests":["#
        for (i, r) in requests.enumerated() {
            if i > 0 { s += "," }
            s += request(r, refusal: nil)
        }
        return s + "]}"
    }

    /// The pending list as a change to `sent` (Docs/ExternalPolicyProtocol.md,
    /// "Delta mode"): the ids that left it, the requests appended to it, the
    /// eligible ids and the refusals other than `before_earliest_begin`
    /// (which the process reads from `earliestBegin`). When the requests
    /// still pending are not, in order, the start of the list now (a
    /// request put back to pending goes to its end), the whole list is
    /// sent again: every id removed, every request added.
    static func pendingDelta(_ c: PolicyContext, sent: inout [RequestID]) -> String {
        let pending = c.pending
        var kept = 0
        var removed: [RequestID] = []
        for id in sent {
            if kept < pending.count && pending[kept].id == id { kept += 1; continue }
            removed.append(id)
        }
        // Out of order (an id of `sent` still pending but not in its place): all again.
        if removed.contains(where: { id in pending.contains { $0.id == id } }) {
            removed = sent
            kept = 0
        }
        var s = #","pendingRemoved":["# + removed.map { String($0.rawValue) }.joined(separator: ",") + #"],"pendingAdded":["#
        for i in kept..<pending.count {
            if i > kept { s += "," }
            s += request(pending[i], refusal: nil)
        }
        var eligible: [String] = [], refusals: [String] = []
        for r in pending {
            if let why = c.refusal(for: r) {
                if why != .beforeEarliestBegin { refusals.append(#""\#(r.id.rawValue)":"\#(why.name)""#) }
            } else {
                eligible.append(String(r.id.rawValue))
            }
        }
        s += #"],"eligible":["# + eligible.joined(separator: ",") + #"],"refusals":{"# + refusals.joined(separator: ",") + "}"
        s += androidMaps(c)
        sent = pending.map(\.id)
        return s
    }

    /// One observation, as an element of a message's `observations`.
    static func observation(_ o: PolicyObservation, _ c: PolicyContext) -> String {
        let head = #"{"now":\#(c.now.microseconds),"device":\#(device(c.device)),"kind":"#
        switch o {
        case .launch(let app): return head + #""launch","app":\#(app)}"#
        case .sessionEnded(let app): return head + #""sessionEnded","app":\#(app)}"#
        case .submitted(let r): return head + #""submitted","request":\#(request(r, refusal: nil))}"#
        case .taskFinished(let t):
            return head + #""taskFinished","report":{"request":\#(request(t.request, refusal: nil)),"start":\#(t.start.microseconds),"end":\#(t.end.microseconds),"outcome":"\#(t.outcome.name)","fetchResult":\#(t.fetchResult.map { #""\#($0.name)""# } ?? "null"),"energyJoules":\#(number(t.energyJoules)),"bytesUp":\#(number(t.bytesUp)),"bytesDown":\#(number(t.bytesDown)),"network":"\#(t.network.name)"}}"#
        case .stateChanged(let change): return head + #""stateChanged","change":"\#(name(change))"}"#
        case .refused(let id, let why): return head + #""refused","request":\#(id.rawValue),"reason":"\#(why.name)"}"#
        case .forceQuit(let app): return head + #""forceQuit","app":\#(app)}"#
        case .cancelled(let r): return head + #""cancelled","request":\#(request(r, refusal: nil))}"#
        @unknown default: return head + #""other"}"#
        }
    }

    static func device(_ d: DeviceState) -> String {
        #"{"batteryPercent":\#(number(d.batteryPercent)),"charging":\#(d.isCharging),"lowPowerMode":\#(d.isLowPowerMode),"network":"\#(d.network.name)","screenOn":\#(d.isScreenOn),"foregroundApp":\#(d.foregroundApp.map { String($0) } ?? "null")}"#
    }

    /// A request; with `refusal` (pending requests at a decision point) also
    /// whether the OS would start it now and, if not, why.
    /// On an Android device with buckets (`android`, at a decision point) also
    /// its app's bucket and quota left (Docs/ExternalPolicyProtocol.md, "Android").
    static func request(_ r: TaskRequest, refusal: Refusal??, android c: PolicyContext? = nil) -> String {
        var s = #"{"id":\#(r.id.rawValue),"app":\#(r.app),"identifier":\#(r.identifier),"kind":"\#(r.kind.name)","earliestBegin":\#(r.earliestBegin.microseconds),"submittedAt":\#(r.submittedAt.microseconds),"requiresExternalPower":\#(r.requiresExternalPower),"requiresNetworkConnectivity":\#(r.requiresNetworkConnectivity)"#
        if case let .some(why) = refusal {
            s += #","eligible":\#(why == nil),"refusal":\#(why.map { #""\#($0.name)""# } ?? "null")"#
        }
        if let c, let bucket = c.standbyBucket(of: r.app), let left = c.quotaLeft(of: r.app) {
            s += #","bucket":"\#(bucket.name)","quotaLeft":\#(left.microseconds)"#
        }
        return s + "}"
    }

    /// Delta mode's counterpart of the per-request Android fields: maps from
    /// every pending id to its app's bucket and quota left ("" on iOS or
    /// with buckets off).
    static func androidMaps(_ c: PolicyContext) -> String {
        guard c.android?.rules.buckets == true else { return "" }
        var buckets: [String] = [], left: [String] = []
        for r in c.pending {
            guard let b = c.standbyBucket(of: r.app), let q = c.quotaLeft(of: r.app) else { return "" }
            buckets.append(#""\#(r.id.rawValue)":"\#(b.name)""#)
            left.append(#""\#(r.id.rawValue)":\#(q.microseconds)"#)
        }
        return #","buckets":{"# + buckets.joined(separator: ",") + #"},"quotaLeft":{"# + left.joined(separator: ",") + "}"
    }

    static func name(_ c: StateChange) -> String {
        switch c {
        case .screenOn: "screenOn"
        case .screenOff: "screenOff"
        case .chargingStarted: "chargingStarted"
        case .chargingStopped: "chargingStopped"
        case .networkChanged: "networkChanged"
        case .lowPowerModeOn: "lowPowerModeOn"
        case .lowPowerModeOff: "lowPowerModeOff"
        case .batteryLow: "batteryLow"
        case .batteryOK: "batteryOK"
        }
    }

    static func time(_ t: SimTime?) -> String { t.map { String($0.microseconds) } ?? "null" }

    /// A finite double in the shortest form that reads back the same; JSON
    /// has no infinity or NaN, so those are null.
    static func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }

    static func string(_ s: String) -> String { JSONText.quote(s) }

    static func json(_ v: ParameterValue) -> String {
        switch v {
        // A whole number as the spec wrote it (2, not 2.0).
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : number(d)
        case .string(let s): string(s)
        case .bool(let b): String(b)
        case .null: "null"
        case .array(let a): "[" + a.map(json).joined(separator: ",") + "]"
        case .object(let o): "{" + o.keys.sorted().map { string($0) + ":" + json(o[$0]!) }.joined(separator: ",") + "}"
        }
    }
}
