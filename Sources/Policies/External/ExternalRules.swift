import Device
import Foundation

/// A standing plan rule of a plan-mode decision process
/// (Docs/ExternalPolicyProtocol.md, "Standing rules"): the plan every new
/// request of an app and kind gets, without a `plan` message, until an
/// observation the process reads (under its `planScope`) drops the rule.
///
/// Why: in plan mode a process is still asked once per submission (about
/// half of greedy's decision points bring one). A policy whose plan depends
/// only on the request's app and kind and on what it has observed (greedy,
/// fixed-interval) can say it once and be asked again only when what it
/// observed changes the rule.
struct ExternalRule: Equatable, Sendable {
    /// The app it is for; nil: every app.
    var app: Int?
    /// The request kind it is for; nil: every kind.
    var kind: TaskKind?
    /// The plan it gives: `runFrom` as written; `wakeAt`, when not nil, is
    /// raised to the request's `earliestBegin` (the request cannot run before).
    var runFrom: Int64?
    var wakeAt: Int64?

    /// The plan this rule gives `request`.
    func plan(for request: TaskRequest) -> ExternalPlans.Plan {
        ExternalPlans.Plan(runFrom: runFrom, wakeAt: wakeAt.map { max($0, request.earliestBegin.microseconds) })
    }

    /// The rule as the protocol writes it (for messages that quote a
    /// declaration).
    var json: String {
        var fields: [String] = []
        if let app { fields.append(#""app":\#(app)"#) }
        if let kind, let name = Self.kindNames.first(where: { $0.1 == kind })?.0 { fields.append(#""kind":"\#(name)""#) }
        fields.append(#""runFrom":\#(runFrom.map(String.init) ?? "null")"#)
        fields.append(#""wakeAt":\#(wakeAt.map(String.init) ?? "null")"#)
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The protocol's names of the request kinds (a request's `kind`).
    static let kindNames: [(String, TaskKind)] = [("refresh", .appRefresh), ("processing", .processing), ("fetch", .legacyFetch)]

    /// Where a list of rules comes from, for its errors: the `hello` reply
    /// (no app may be named: the number of apps comes with `start`), or a
    /// `plans` reply to a device with `apps` apps.
    enum Source { case hello, plans(apps: Int) }

    /// The `rules` field of a reply, checked element by element; nil or
    /// null: none. Each error names the field and what is allowed.
    static func parse(_ value: Any?, from source: Source) throws(ExternalReply.Invalid) -> [ExternalRule] {
        func bad(_ what: String, _ expected: String) -> ExternalReply.Invalid {
            switch source {
            case .hello: ExternalReply.Invalid("gave \(what) in its hello; expected \(expected)")
            case .plans: ExternalReply.Invalid("answered with \(what), expected \(expected)")
            }
        }
        guard let value, !(value is NSNull) else { return [] }
        guard let list = value as? [Any] else {
            throw bad(#""rules" \#(ExternalReply.show(value))"#, #"an array of rules {"app", "kind", "runFrom", "wakeAt"}"#)
        }
        var out: [ExternalRule] = []
        out.reserveCapacity(list.count)
        for (i, v) in list.enumerated() {
            let at = #""rules"[\#(i)]"#
            guard let o = v as? [String: Any] else {
                throw bad("\(at) \(ExternalReply.show(v))", #"an object {"app", "kind", "runFrom", "wakeAt"}"#)
            }
            var rule = ExternalRule()
            if let a = o["app"], !(a is NSNull) {
                switch source {
                case .hello:
                    throw bad("\(at).app \(ExternalReply.show(a))", #"no "app" (a rule in the hello is for every app: the number of apps comes with "start"; name an app in a "plans" reply)"#)
                case .plans(let apps):
                    guard let n = a as? Int, (0..<apps).contains(n) else {
                        throw bad("\(at).app \(ExternalReply.show(a))", "an app number in 0...\(apps - 1), or no \"app\" (every app)")
                    }
                    rule.app = n
                }
            }
            if let k = o["kind"], !(k is NSNull) {
                guard let name = k as? String, let kind = kindNames.first(where: { $0.0 == name })?.1 else {
                    throw bad("\(at).kind \(ExternalReply.show(k))", #"one of "refresh", "processing", "fetch", or no "kind" (every kind)"#)
                }
                rule.kind = kind
            }
            guard let from = o["runFrom"] else {
                throw bad("no \(at).runFrom", "whole microseconds or null")
            }
            rule.runFrom = try time(from, "\(at).runFrom", bad)
            if let wake = o["wakeAt"] { rule.wakeAt = try time(wake, "\(at).wakeAt", bad) }
            out.append(rule)
        }
        return out
    }

    private static func time(_ v: Any, _ at: String, _ bad: (String, String) -> ExternalReply.Invalid) throws(ExternalReply.Invalid) -> Int64? {
        if v is NSNull { return nil }
        guard let t = v as? Int else { throw bad("\(at) \(ExternalReply.show(v))", "whole microseconds or null") }
        return Int64(t)
    }

    init(app: Int? = nil, kind: TaskKind? = nil, runFrom: Int64?, wakeAt: Int64?) {
        self.app = app
        self.kind = kind
        self.runFrom = runFrom
        self.wakeAt = wakeAt
    }

    private init() {}
}

/// The standing rules of one device: one slot per (app, kind), filled by
/// the rules in the order given (a later rule replaces an earlier one where
/// they overlap), emptied for an app (or all apps) by an observation that
/// may change its plans.
struct ExternalRuleTable {
    private let apps: Int
    private var slots: [ExternalRule?]
    /// Whether any slot is filled (a process without rules pays nothing).
    private(set) var isEmpty = true

    init(apps: Int, rules: [ExternalRule]) {
        self.apps = apps
        slots = Array(repeating: nil, count: apps * TaskKind.allCases.count)
        set(rules)
    }

    mutating func set(_ rules: [ExternalRule]) {
        let kinds = TaskKind.allCases.count
        for rule in rules {
            for app in rule.app.map({ $0..<($0 + 1) }) ?? 0..<apps {
                for kind in TaskKind.allCases where rule.kind == nil || rule.kind == kind {
                    slots[app * kinds + Int(kind.rawValue)] = rule
                    isEmpty = false
                }
            }
        }
    }

    /// Drops the rules of `app`, or of every app (nil).
    mutating func drop(app: Int32?) {
        guard !isEmpty else { return }
        if let app, Int(app) < apps {
            let kinds = TaskKind.allCases.count
            for i in Int(app) * kinds ..< (Int(app) + 1) * kinds { slots[i] = nil }
        } else {
            for i in slots.indices { slots[i] = nil }
            isEmpty = true
        }
    }

    /// The rule for `request`'s app and kind, if one stands.
    func rule(for request: TaskRequest) -> ExternalRule? {
        guard !isEmpty, request.app >= 0, Int(request.app) < apps else { return nil }
        return slots[Int(request.app) * TaskKind.allCases.count + Int(request.kind.rawValue)]
    }
}
