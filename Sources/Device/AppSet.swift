/// A set of app indices below ``AppSet/capacity``, one bit per app: the
/// apps the user force-quit in the app switcher
/// (``DeviceState/forceQuitApps``).
///
/// Why one inline word and not an array or a `Set<Int32>`: the set is part
/// of the device state, which is copied into every policy call. A plain
/// 64-bit value keeps `DeviceState` trivially copyable (no reference count
/// to touch at each copy) and the same size as before force-quit existed.
/// The price is a limit: only the first 64 apps of a device can be
/// force-quit. `validate` and `run` reject a spec that gives a later app a
/// force-quit probability (`WorldChecks`, Docs/Semantics.md "Force-quit").
@frozen
public struct AppSet: Sendable, Hashable {
    /// Apps with an index in `0..<capacity` can be members.
    public static let capacity: Int32 = 64

    @usableFromInline var bits: UInt64

    @inlinable public init() { bits = 0 }

    /// No app in the set.
    @inlinable public var isEmpty: Bool { bits == 0 }

    @inlinable
    public func contains(_ app: Int32) -> Bool {
        app >= 0 && app < Self.capacity && bits & (1 << UInt64(app)) != 0
    }

    /// Adds `app`, which must be below ``capacity`` (checked by the spec's
    /// world checks before a run starts).
    public mutating func insert(_ app: Int32) {
        precondition(app >= 0 && app < Self.capacity, "app index \(app) outside 0..<\(Self.capacity)")
        bits |= 1 << UInt64(app)
    }

    public mutating func remove(_ app: Int32) {
        guard app >= 0 && app < Self.capacity else { return }
        bits &= ~(1 << UInt64(app))
    }

    /// The apps in the set, in increasing order.
    public var apps: [Int32] {
        (0..<Self.capacity).filter { contains($0) }
    }
}
