// A trace set read one user at a time (formats: Datasets/README.md): the
// header (apps, horizon, user list) first, then each user's rows of the five
// per-user files, checked as they are read. Memory is one user's rows plus
// one read buffer per file, whatever the size of the set; the whole-set
// reader (`TraceSetReader.read`) is this stream drained.
import Foundation

public final class TraceSetStream {
    public let header: TraceSetHeader
    private let context: UserRowContext
    private var sessions: UserRowCursor
    private var charging: UserRowCursor?
    private var lowPowerMode: UserRowCursor?
    private var network: UserRowCursor?
    private var content: UserRowCursor?
    private var batteryLevel: UserRowCursor?
    /// Position in `header.profiles` of the next user to read.
    public private(set) var position = 0

    /// Reads and checks the header of the set in `directory` and opens its
    /// per-user files.
    public convenience init(directory: URL) throws {
        try self.init(directory: directory, header: TraceSetHeader.read(directory: directory))
    }

    /// Opens the per-user files of `directory`, whose header was read
    /// already (`TraceSetHeader.read`): a second pass over the same set.
    public init(directory: URL, header: TraceSetHeader) throws {
        self.header = header
        context = UserRowContext(header)
        let present = header.present
        func open(_ file: String) throws -> UserRowCursor? {
            present.contains(file) ? try UserRowCursor(directory, file) : nil
        }
        sessions = try UserRowCursor(directory, TraceSetFile.sessions)
        charging = try open(TraceSetFile.charging)
        lowPowerMode = try open(TraceSetFile.lowPowerMode)
        network = try open(TraceSetFile.network)
        content = try open(TraceSetFile.contentUpdates)
        batteryLevel = try open(TraceSetFile.batteryLevel)
    }

    /// The next user's trace, every row of it checked; nil after the last
    /// user, once every file has been checked to its end. A file the set
    /// omits (its stream is synthesised) leaves its field empty.
    ///
    /// The files are read in the order sessions, charging, Low Power Mode,
    /// network, content, battery level: with several bad files, the error is that of the
    /// first user with a bad row, and for that user of the first file.
    public func next() throws -> UserTrace? {
        guard position < header.profiles.count else {
            try sessions.expectEnd(context)
            try charging?.expectEnd(context)
            try lowPowerMode?.expectEnd(context)
            try network?.expectEnd(context)
            try content?.expectEnd(context)
            try batteryLevel?.expectEnd(context)
            return nil
        }
        let pos = position
        var profile = header.profiles[pos]
        let userSessions = try sessions.takeSessions(pos, context)
        let userCharging = try charging?.takeCharging(pos, context) ?? []
        let userLowPowerMode = try lowPowerMode?.takeLowPowerMode(pos, context) ?? []
        let userNetwork = try network?.takeNetwork(pos, context) ?? []
        let userContent = try content?.takeContent(pos, context) ?? Array(repeating: [], count: context.appCount)
        let userBattery = try batteryLevel?.takeBatteryLevel(pos, context) ?? []
        if !header.hasUsersFile { profile.meanSessionsPerDay = Double(userSessions.count) / Double(header.days) }
        let trace = UserTrace(profile: profile, horizon: header.horizon, sessions: userSessions, charging: userCharging,
                              network: userNetwork, contentUpdates: userContent, lowPowerModeDecisions: userLowPowerMode,
                              batteryLevel: userBattery)
        position += 1
        return trace
    }
}
