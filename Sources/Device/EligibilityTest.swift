import SimCore

/// `context.isEligible(r)` (`OSRules.refusal(for:at:state:) == nil`) for many
/// requests of one decision, with the device-state half of the rules read
/// once per decision instead of once per request.
///
/// Why: a policy's `decide` walks the pending list at every decision point
/// (hundreds of thousands per run) and asks for each request whether the OS
/// would start it. `OSRules.refusal` re-reads the device state (Low Power
/// Mode, battery, screen, foreground app, charger, network) for every
/// request and returns the first broken rule, which policies only compare
/// with nil. Here the state is folded up front into a 16-bit table, and a
/// request is eligible when it breaks none of the rules — the same answer
/// (the refusal is nil exactly when no rule is broken; which one comes first
/// does not matter for a yes/no). Three registers (now, the table, the
/// foreground app) instead of six state fields keep a policy's loop out of
/// the stack. `PoliciesTests` (FastPathTests) checks it against
/// `OSRules.refusal` over every combination of request and state that a
/// rule reads.
///
/// Keep it in step with `OSRules.refusal` (DeviceState.swift): it lives
/// next to it, in Device, so a rule change touches one module.
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

    /// The bit of `r` in `blockedShapes`: bits 0–1 the kind's raw value
    /// (`TaskKind` is frozen: 0 refresh, 1 processing, 2 fetch), bit 2
    /// `requiresExternalPower`, bit 3 `requiresNetworkConnectivity`.
    @inlinable @inline(__always)
    public static func shape(_ r: TaskRequest) -> UInt16 {
        UInt16(r.kind.rawValue)
            | (r.requiresExternalPower ? 4 : 0)
            | (r.requiresNetworkConnectivity ? 8 : 0)
    }

    // The shapes each state forbids, as sets of `shape` bits.
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
        now = context.now.microseconds
        // One term per rule, combined without branches (selects).
        // Rule 4: Low Power Mode or low battery stop refresh and fetch.
        let lowPower: UInt16 = state.isLowPowerMode ? Self.refreshShapes : 0
        let lowBattery: UInt16 = state.batteryPercent < OSRules.lowBatteryPercent ? Self.refreshShapes : 0
        // Rule 3: the screen on stops processing; the requirements.
        let screenOn: UInt16 = state.isScreenOn ? Self.processingShapes : 0
        let noPower: UInt16 = state.isCharging ? 0 : Self.powerShapes
        let offline: UInt16 = state.network.isOnline ? 0 : Self.networkShapes
        blockedShapes = lowPower | lowBattery | screenOn | noPower | offline
        if let f = state.foregroundApp { foregroundApp = Int64(f) } else { foregroundApp = .min }
    }

    /// `allows(r) && now >= runFrom` for a request of shape `shape(r)` and
    /// app `app`, when `runFrom` is not before its earliest begin (rule 1
    /// is then the one comparison). The simulator's test on a kept plan.
    @inlinable @inline(__always)
    public func allows(shape: UInt8, app: Int32, from runFrom: Int64) -> Bool {
        now >= runFrom
            && (blockedShapes &>> UInt16(shape)) & 1 == 0
            && Int64(app) != foregroundApp
    }

    /// Whether the OS would start `r` now (`context.isEligible(r)`).
    @inlinable @inline(__always)
    public func allows(_ r: TaskRequest) -> Bool {
        now >= r.earliestBegin.microseconds
            && (blockedShapes &>> Self.shape(r)) & 1 == 0 // `&>>`: shape < 16, no over-shift check
            && Int64(r.app) != foregroundApp
    }
}
