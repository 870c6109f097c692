/// The network the device is on. `cellular` is LTE unless the energy
/// parameter set says otherwise.
@frozen
public enum NetworkType: UInt8, Sendable, Hashable, CaseIterable, Codable {
    case offline = 0
    case wifi = 1
    case cellular = 2

    public var isOnline: Bool { self != .offline }

    /// Short name used in the event log and in configuration files.
    public var name: String {
        switch self {
        case .offline: "offline"
        case .wifi: "wifi"
        case .cellular: "cellular"
        }
    }
}
