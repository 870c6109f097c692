import Device
import Foundation

/// What a decision process declares in its `hello` reply
/// (Docs/ExternalPolicyProtocol.md, "hello", "Delta mode", "Plan mode"):
/// how it wants the pending list, and whether it decides at every decision
/// point (`decide` messages) or declares one plan per request (`plan`
/// messages, asked only when a request has no plan).
///
/// Every process of one configuration runs the same command, so they must
/// all declare the same: the simulator reads the declaration once per
/// device (``ExternalPolicy/instanceTraits``) before any process is
/// checked out for it.
struct ExternalDeclaration: Equatable, Sendable {
    enum Mode: String, Sendable { case decide, plans }
    var mode = Mode.decide
    /// Decide mode: the pending list as changes (`"pending":"delta"`).
    var pendingDelta = false
    /// Plan mode: the observation kinds the process reads (`"observes"`);
    /// only these are sent, and each may change plans.
    var observes = ObservationKinds.all
    /// Plan mode: which plans an observation it reads may change (`"planScope"`).
    var scope = PlanScope.all
    /// Plan mode: the standing rules every device starts with (`"rules"`).
    var rules: [ExternalRule] = []

    /// The traits the simulator honours for a process with this declaration.
    /// Decide mode: `external`'s own (every observation, every decision
    /// point). Plan mode: what the process reads, so it is asked at a
    /// session start only if it reads launches — as the built-in planning
    /// policies, which read none.
    var traits: PolicyTraits {
        mode == .decide ? ExternalPolicy.traits : PolicyTraits(observedKinds: observes)
    }

    /// The protocol's name of each observation kind (the `kind` of an observation).
    static let kindNames: [(String, ObservationKinds)] = [
        ("launch", .launch), ("sessionEnded", .sessionEnded), ("submitted", .submitted),
        ("taskFinished", .taskFinished), ("stateChanged", .stateChanged), ("refused", .refused),
        ("forceQuit", .forceQuit), ("cancelled", .cancelled)]

    /// The declaration of a `hello` reply, or which field is wrong and what is allowed.
    init(hello o: [String: Any]) throws(ExternalReply.Invalid) {
        switch o["pending"] {
        case nil, is NSNull: break
        case let v as String where v == "delta" || v == "full": pendingDelta = v == "delta"
        case let other: throw ExternalReply.Invalid(#"asked for "pending" \#(ExternalReply.show(other)) in its hello; this bgbench knows "full" and "delta""#)
        }
        switch o["mode"] {
        case nil, is NSNull: break
        case let v as String where Mode(rawValue: v) != nil: mode = Mode(rawValue: v)!
        case let other: throw ExternalReply.Invalid(#"asked for "mode" \#(ExternalReply.show(other)) in its hello; this bgbench knows "decide" and "plans""#)
        }
        let known = Self.kindNames.map { #""\#($0.0)""# }.joined(separator: ", ")
        switch o["observes"] {
        case nil, is NSNull: break
        case let list as [Any] where mode == .plans:
            observes = []
            for (i, v) in list.enumerated() {
                guard let name = v as? String, let kind = Self.kindNames.first(where: { $0.0 == name })?.1 else {
                    throw ExternalReply.Invalid(#"gave "observes"[\#(i)] \#(ExternalReply.show(v)) in its hello; expected one of \#(known)"#)
                }
                observes.insert(kind)
            }
        case let other where mode == .plans:
            throw ExternalReply.Invalid(#"gave "observes" \#(ExternalReply.show(other)) in its hello; expected an array of observation kinds (\#(known))"#)
        default:
            throw ExternalReply.Invalid(#"gave "observes" in its hello without "mode":"plans" (a decide-mode process is sent every observation)"#)
        }
        switch o["planScope"] {
        case nil, is NSNull: break
        case let v as String where mode == .plans && (v == "all" || v == "app"): scope = v == "all" ? .all : .observedApp
        case let other where mode == .plans:
            throw ExternalReply.Invalid(#"gave "planScope" \#(ExternalReply.show(other)) in its hello; this bgbench knows "all" and "app""#)
        default:
            throw ExternalReply.Invalid(#"gave "planScope" in its hello without "mode":"plans""#)
        }
        if let r = o["rules"], !(r is NSNull) {
            guard mode == .plans else {
                throw ExternalReply.Invalid(#"gave "rules" in its hello without "mode":"plans" (standing rules are plans)"#)
            }
            rules = try ExternalRule.parse(r, from: .hello)
        }
    }

    init() {}

    /// For messages: the fields of the `hello` reply this stands for.
    var summary: String {
        if mode == .decide { return #""mode":"decide","pending":"\#(pendingDelta ? "delta" : "full")""# }
        let kinds = Self.kindNames.filter { observes.contains($0.1) }.map { #""\#($0.0)""# }.joined(separator: ",")
        return #""mode":"plans","observes":[\#(kinds)],"planScope":"\#(scope == .all ? "all" : "app")""#
            + (rules.isEmpty ? "" : #","rules":["# + rules.map(\.json).joined(separator: ",") + "]")
    }
}
