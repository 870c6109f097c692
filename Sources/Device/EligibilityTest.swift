import SimCore

/// `context.isEligible(r)` for many requests of one decision: the
/// device-state half of ``OSRules`` folded once into a 16-bit table of the
/// request shapes the state forbids, so that each request costs three
/// comparisons (earliest begin, its shape's bit, the foreground app), and
/// a fourth (the app-switcher rule, ``EligibilityRules/appForceQuit(_:_:)``)
/// only when some app is force-quit.
///
/// Derived from ``EligibilityRules`` (part of ``OSRules``): each bit term
/// below reads the same rule predicate `refusal` does (`contentRefreshBlocked`,
/// `processingBlocked`, `externalPowerMissing`, `networkMissing`), so a
/// rule or threshold changed there changes this too. A request is eligible
/// exactly when it breaks no rule, which is when the refusal is nil (which
/// rule comes first does not matter for a yes/no). `PoliciesTests`
/// (FastPathTests) checks the two over every combination of request and
/// state that a rule reads.
///
/// The table folds iOS's rules. On an Android device the platform's own
/// rules answer instead: ``allows(_:in:)`` asks `context.isEligible`
/// there (AndroidPlatform.swift), so a planning policy's derived `decide`
/// and the coalescing wrapper ask to run exactly what the device's OS would
/// start (`AndroidEligibilityTests`). The test stays a plain value (no
/// reference to the context): it is built at most decision points.
@frozen
public struct EligibilityTest {
    /// `context.now`, microseconds (rule 1: not before `earliestBegin`).
    public let now: Int64
    /// Bit `shape(r)` is set when the device state forbids requests of that
    /// shape (kind, `requiresExternalPower`, `requiresNetworkConnectivity`):
    /// rules 3 and 4, which read only those three fields of a request.
    public let blockedShapes: UInt16
    /// The foreground app's index (its own background tasks may not start),
    /// or `Int64.min` with no foreground app: no `Int32` app index equals it.
    public let foregroundApp: Int64
    /// The force-quit apps (the app-switcher rule); empty in worlds
    /// without force-quits, where the test is one length comparison.
    public let forceQuitApps: AppSet
    /// The device is an Android one: its platform's rules answer
    /// (``allows(_:in:)``), not the table.
    public let platformDecides: Bool

    /// The bit of `r` in `blockedShapes`: bits 0–1 the kind's raw value
    /// (`TaskKind` is frozen: 0 refresh, 1 processing, 2 fetch), bit 2
    /// `requiresExternalPower`, bit 3 `requiresNetworkConnectivity`.
    @inlinable @inline(__always)
    public static func shape(_ r: TaskRequest) -> UInt16 {
        UInt16(r.kind.rawValue)
            | (r.requiresExternalPower ? 4 : 0)
            | (r.requiresNetworkConnectivity ? 8 : 0)
    }

    // The shapes each rule forbids, as sets of `shape` bits.
    /// Refresh and fetch (kind 0 or 2), any requirements.
    @inlinable public static var refreshShapes: UInt16 { 0b0101_0101_0101_0101 }
    /// Processing (kind 1), any requirements.
    @inlinable public static var processingShapes: UInt16 { 0b0010_0010_0010_0010 }
    /// `requiresExternalPower` (bit 2), any kind.
    @inlinable public static var powerShapes: UInt16 { 0b1111_0000_1111_0000 }
    /// `requiresNetworkConnectivity` (bit 3), any kind.
    @inlinable public static var networkShapes: UInt16 { 0b1111_1111_0000_0000 }

    @inlinable @inline(__always)
    public init(_ context: PolicyContext) {
        let state = context.device
        let rules = context.eligibilityRules
        now = context.now.microseconds
        // One term per rule of `OSRules.refusal`, combined without branches.
        let refresh: UInt16 = rules.contentRefreshBlocked(state) != nil ? Self.refreshShapes : 0
        let processing: UInt16 = EligibilityRules.processingBlocked(state) ? Self.processingShapes : 0
        let power: UInt16 = EligibilityRules.externalPowerMissing(state) ? Self.powerShapes : 0
        let network: UInt16 = EligibilityRules.networkMissing(state) ? Self.networkShapes : 0
        blockedShapes = refresh | processing | power | network
        if let f = state.foregroundApp { foregroundApp = Int64(f) } else { foregroundApp = .min }
        forceQuitApps = state.forceQuitApps
        platformDecides = context.boundKnowledge?.android != nil
    }

    /// `allows(r) && now >= runFrom` for a request of shape `shape(r)` and
    /// app `app`, when `runFrom` is not before its earliest begin (rule 1
    /// is then the one comparison). The simulator's test on a kept plan,
    /// which it keeps on iOS only: iOS's rules.
    @inlinable @inline(__always)
    public func allows(shape: UInt8, app: Int32, from runFrom: Int64) -> Bool {
        now >= runFrom
            && (blockedShapes &>> UInt16(shape)) & 1 == 0
            && Int64(app) != foregroundApp
            && (forceQuitApps.isEmpty || !forceQuitApps.contains(app))
    }

    /// Whether the device's OS would start `r` now, `context` being the
    /// context this test was built from (`context.isEligible(r)`).
    @inlinable @inline(__always)
    public func allows(_ r: TaskRequest, in context: PolicyContext) -> Bool {
        platformDecides ? context.isEligible(r) : allows(r)
    }

    /// Whether iOS would start `r` now (`context.isEligible(r)` on iOS).
    @inlinable @inline(__always)
    public func allows(_ r: TaskRequest) -> Bool {
        now >= r.earliestBegin.microseconds
            && (blockedShapes &>> Self.shape(r)) & 1 == 0 // `&>>`: shape < 16, no over-shift check
            && Int64(r.app) != foregroundApp
            && (forceQuitApps.isEmpty || !forceQuitApps.contains(r.app))
    }
}
