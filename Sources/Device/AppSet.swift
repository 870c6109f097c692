/// A set of app indices, one bit per app: the apps the user force-quit in
/// the app switcher (``DeviceState/forceQuitApps``).
///
/// Why bits in an array and not a `Set<Int32>`: the set is in the device
/// state, which is copied into every policy call; with no app force-quit
/// (the default) it is an empty array, and a membership test is one length
/// comparison. Trailing zero words are trimmed, so two equal sets have
/// equal words and `isEmpty` is the array's.
@frozen
public struct AppSet: Sendable, Hashable {
    @usableFromInline var words: [UInt64]

    @inlinable public init() { words = [] }

    /// No app in the set.
    @inlinable public var isEmpty: Bool { words.isEmpty }

    @inlinable
    public func contains(_ app: Int32) -> Bool {
        guard app >= 0 else { return false }
        let w = Int(app) >> 6
        return w < words.count && words[w] & (1 << UInt64(app & 63)) != 0
    }

    public mutating func insert(_ app: Int32) {
        precondition(app >= 0, "app index out of range")
        let w = Int(app) >> 6
        while words.count <= w { words.append(0) }
        words[w] |= 1 << UInt64(app & 63)
    }

    public mutating func remove(_ app: Int32) {
        guard contains(app) else { return }
        words[Int(app) >> 6] &= ~(1 << UInt64(app & 63))
        while let last = words.last, last == 0 { words.removeLast() }
    }

    /// The apps in the set, in increasing order.
    public var apps: [Int32] {
        var out: [Int32] = []
        for (w, word) in words.enumerated() where word != 0 {
            for b in 0..<64 where word & (1 << UInt64(b)) != 0 { out.append(Int32(w * 64 + b)) }
        }
        return out
    }
}
