import Traces
import Device
import SimCore

/// The fast path of the replies read at every round trip: a `decision` or
/// a `plans` reply read with ``JSONParser`` and checked as the slow path
/// checks it. Nil for anything else — another type, an `error`, any field
/// the slow path would refuse or might read differently — and the caller
/// then reads the line the slow way, which gives the same answer or names
/// the problem. So only well-formed replies take this path, and they give
/// exactly what the slow path gives.
///
/// Why not only the slow path: `JSONSerialization` hands back `Any`, and
/// every `as? Int`, `as? String`, `as? [String: Any]` on it is a dynamic
/// cast through Foundation's bridging — about 36 µs for a `plans` reply
/// with six rules (JSONDecoder: the same), more than the Python process
/// spends on the message (Docs/ExternalPolicyProtocol.md, "Speed").
enum ExternalFastReplies {
    /// A `decision` reply to a `decide` whose pending list was `pending`.
    static func decision(_ line: [UInt8], pending: [TaskRequest]) -> PolicyDecision? {
        guard let o = try? JSONParser.parse(bytes: line), o["type"] == .string("decision") else { return nil }
        guard let ids = optionalArray(o["run"]) else { return nil }
        var run: [RequestID] = []
        run.reserveCapacity(ids.count)
        for v in ids {
            guard let n = whole(v), let id = UInt32(exactly: n),
                  pending.contains(where: { $0.id.rawValue == id }) else { return nil }
            run.append(RequestID(id))
        }
        var all = false
        switch o["runAllEligible"] {
        case nil, .null?: break
        case .bool(let b)?: all = b
        default: return nil
        }
        var wake: SimTime? = nil
        switch o["wakeAt"] {
        case nil, .null?: break
        case let v?:
            guard let t = whole(v) else { return nil }
            wake = SimTime(microseconds: t)
        }
        return PolicyDecision(run: run, runAllEligible: all, wakeAt: wake)
    }

    /// A `plans` reply to a `plan` message that asked for `asked`, on a
    /// device with `apps` apps.
    static func plans(_ line: [UInt8], asked: [TaskRequest], apps: Int) -> ExternalPlans.Reply? {
        guard let o = try? JSONParser.parse(bytes: line), o["type"] == .string("plans"),
              case .array(let list)? = o["plans"], list.count == asked.count else { return nil }
        var plans: [ExternalPlans.Plan] = []
        plans.reserveCapacity(list.count)
        for (v, r) in zip(list, asked) {
            guard let id = v["id"].flatMap(whole), id == Int64(r.id.rawValue),
                  let from = v["runFrom"], case .some(let runFrom) = time(from),
                  case .some(let wakeAt) = time(v["wakeAt"] ?? .null) else { return nil }
            plans.append(ExternalPlans.Plan(runFrom: runFrom, wakeAt: wakeAt))
        }
        guard let given = optionalArray(o["rules"]) else { return nil }
        var rules: [ExternalRule] = []
        rules.reserveCapacity(given.count)
        for v in given {
            guard case .object = v, let from = v["runFrom"], case .some(let runFrom) = time(from),
                  case .some(let wakeAt) = time(v["wakeAt"] ?? .null) else { return nil }
            var app: Int? = nil
            switch v["app"] {
            case nil, .null?: break
            case .number(let a)? where a >= 0 && a < Double(apps) && a == a.rounded(.towardZero): app = Int(a)
            default: return nil
            }
            var kind: TaskKind? = nil
            switch v["kind"] {
            case nil, .null?: break
            case .string(let name)?:
                guard let k = ExternalRule.kindNames.first(where: { $0.0 == name })?.1 else { return nil }
                kind = k
            default: return nil
            }
            rules.append(ExternalRule(app: app, kind: kind, runFrom: runFrom, wakeAt: wakeAt))
        }
        return ExternalPlans.Reply(plans: plans, rules: rules)
    }

    /// An optional array field: empty when absent or null, nil when not an array.
    private static func optionalArray(_ v: JSONValue?) -> [JSONValue]? {
        switch v {
        case nil, .null?: []
        case .array(let a)?: a
        default: nil
        }
    }

    /// A time field: .some(nil) for null, .some(t) for whole µs, nil otherwise.
    private static func time(_ v: JSONValue) -> Int64?? {
        switch v {
        case .null: .some(nil)
        default: whole(v).map { .some($0) }
        }
    }

    /// A number with no fraction that a Double holds exactly (|n| < 2^53),
    /// as the slow path's `as? Int` reads it; nil otherwise (from 2^53 on
    /// the slow path, which keeps the digits, decides).
    private static func whole(_ v: JSONValue) -> Int64? {
        guard case .number(let d) = v, d == d.rounded(.towardZero), abs(d) < 9_007_199_254_740_992 else { return nil }
        return Int64(d)
    }
}
