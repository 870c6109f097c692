// The streams of a trace set other than the sessions, which a set may omit
// and a spec may have synthesised by the generators (Datasets/README.md,
// "Streams a set may omit").

/// A stream of a user's trace that the generators can synthesise from the
/// user's index and the seed alone. The sessions are not one: they are what
/// a real trace brings.
public enum TraceStream: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Charging intervals, Low Power Mode answers and the user's power
    /// constants (drains, charger, battery, initial level, Background App
    /// Refresh switches): charging.csv, low_power_mode.csv and the power
    /// columns of users.csv.
    case power
    /// Connectivity intervals: network.csv.
    case network
    /// Server-side content updates: content_updates.csv.
    case content

    /// The files holding the stream's per-user rows. users.csv is not
    /// listed for power: it also holds the user list and the usage columns,
    /// and a set may have it without charging.csv and low_power_mode.csv.
    public var files: [String] {
        switch self {
        case .power: [TraceSetFile.charging, TraceSetFile.lowPowerMode]
        case .network: [TraceSetFile.network]
        case .content: [TraceSetFile.contentUpdates]
        }
    }

    public static func < (a: TraceStream, b: TraceStream) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
