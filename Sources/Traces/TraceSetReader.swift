// Reads a trace-set directory strictly (formats: Datasets/README.md).
//
// Every problem is an error naming the file, the 1-based line and column
// (column 0 = the whole line, line 0 = the whole file) and what was expected.
// Nothing is skipped or repaired: a converted real trace either matches the
// format exactly or the researcher learns precisely where it does not.
import Foundation
import SimCore

/// A trace-set file that does not match the format.
public struct TraceFormatError: Error, Equatable, CustomStringConvertible {
    /// File name inside the trace-set directory, e.g. `sessions.csv`.
    public let file: String
    /// 1-based line number; 0 when the problem concerns the whole file.
    public let line: Int
    /// 1-based column (field) number; 0 when the problem concerns the whole line.
    public let column: Int
    public let message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

public enum TraceSetReader {
    /// Reads and validates the whole trace set in `directory`.
    public static func read(directory: URL) throws -> TraceSet {
        let present = try checkDirectory(directory)
        let hasUsersFile = present.contains(TraceSetFile.users)
        let missing = Set(TraceStream.allCases.filter { !present.contains($0.files[0]) })
        let days = try readTraceSetFile(directory)
        let horizon = SimTime(day: days).microseconds
        var apps = try readApps(directory)
        var users = hasUsersFile
            ? try readUsers(directory, appCount: apps.count, horizon: SimTime(microseconds: horizon))
            : try usersOfSessions(directory, appCount: apps.count, horizon: SimTime(microseconds: horizon))
        let position = Dictionary(uniqueKeysWithValues: users.enumerated().map { ($1.profile.index, $0) })
        var dense = [Int](repeating: -1, count: min((position.keys.max() ?? -1) + 1, 4 * position.count + 16))
        for (id, pos) in position where id < dense.count { dense[id] = pos }
        let ctx = Context(position: position, dense: dense, appCount: apps.count, horizon: horizon, days: days,
                          present: present)
        try readPerUserFiles(directory, ctx, &users)
        if !hasUsersFile {
            for i in users.indices { users[i].profile.meanSessionsPerDay = Double(users[i].sessions.count) / Double(days) }
        }
        var provenance: TraceProvenance?
        let generator = directory.appendingPathComponent(TraceSetFile.generator)
        if FileManager.default.fileExists(atPath: generator.path) {
            do {
                provenance = try JSONDecoder().decode(TraceProvenance.self, from: Data(contentsOf: generator))
            } catch {
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0,
                                       message: "expected the generator's seed, users, days and parameters as JSON: \(error)")
            }
            if let p = provenance, p.days != days || p.users != users.count {
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0,
                                       message: "expected days \(days) and users \(users.count) as in the CSV files, found days \(p.days) and users \(p.users)")
            }
        }
        // apps.csv does not hold the generator-only traits: restore them
        // from generator.json for apps of the same name.
        if let p = provenance {
            let traits = Dictionary(p.parameters.apps.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            apps = apps.map { a in traits[a.name].map { a.withTraits(of: $0) } ?? a }
        }
        return TraceSet(apps: apps, days: days, users: users, provenance: provenance,
                        missingStreams: missing, hasUsersFile: hasUsersFile)
    }

    /// The five per-user files are independent: each is read on its own
    /// copy of the users (filling only its own field) in parallel, then the
    /// fields are merged. The error thrown is that of the first failing file
    /// in the sequential order (sessions, charging, Low Power Mode, network,
    /// content), the one a sequential read would report.
    private static func readPerUserFiles(_ dir: URL, _ ctx: Context, _ users: inout [UserTrace]) throws {
        // A file the set omits (its stream is synthesised) leaves its field empty.
        let readers: [@Sendable (URL, Context, inout [UserTrace]) throws -> Void] = [
            { try readSessions($0, $1, &$2) },
            { if $1.present.contains(TraceSetFile.charging) { try readCharging($0, $1, &$2) } },
            { if $1.present.contains(TraceSetFile.lowPowerMode) { try readLowPowerMode($0, $1, &$2) } },
            { if $1.present.contains(TraceSetFile.network) { try readNetwork($0, $1, &$2) } },
            { if $1.present.contains(TraceSetFile.contentUpdates) { try readContent($0, $1, &$2) } },
        ]
        let base = users
        let slots = FileSlots(count: readers.count)
        DispatchQueue.concurrentPerform(iterations: readers.count) { k in
            var copy = base
            do {
                try readers[k](dir, ctx, &copy)
                slots.store(.success(copy), at: k)
            } catch {
                slots.store(.failure(error), at: k)
            }
        }
        var read: [[UserTrace]] = []
        for result in slots.collect() { read.append(try result.get()) }
        for i in users.indices {
            users[i].sessions = read[0][i].sessions
            users[i].charging = read[1][i].charging
            users[i].lowPowerModeDecisions = read[2][i].lowPowerModeDecisions
            users[i].network = read[3][i].network
            users[i].contentUpdates = read[4][i].contentUpdates
        }
    }

    /// One result per file; every access holds the lock, which is what
    /// makes the unchecked `Sendable` sound.
    private final class FileSlots: @unchecked Sendable {
        private var results: [Result<[UserTrace], any Error>]
        init(count: Int) { results = Array(repeating: .success([]), count: count) }
        private let lock = NSLock()
        func store(_ r: Result<[UserTrace], any Error>, at k: Int) { lock.lock(); results[k] = r; lock.unlock() }
        func collect() -> [Result<[UserTrace], any Error>] { lock.lock(); defer { lock.unlock() }; return results }
    }

    private struct Context {
        let position: [Int: Int]
        /// `position` as an array for small ids (-1: unknown): one load per
        /// row instead of a hash lookup, ids being 0..<n in practice.
        let dense: [Int]
        let appCount: Int
        let horizon: Int64
        let days: Int
        /// The CSV files the directory has.
        let present: Set<String>
    }

    /// Every required file present, each omitted stream omitted whole
    /// (`TraceStream.files`), charging and Low Power Mode only beside the
    /// users.csv that holds the power constants; no unexpected CSV file (a
    /// misspelt name would otherwise go unnoticed). Returns the CSV files present.
    private static func checkDirectory(_ directory: URL) throws -> Set<String> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else {
            throw TraceFormatError(file: directory.path, line: 0, column: 0,
                                   message: "expected a readable trace-set directory holding \(TraceSetFile.allCSV.joined(separator: ", "))")
        }
        for required in TraceSetFile.requiredCSV where !names.contains(required) {
            throw TraceFormatError(file: required, line: 0, column: 0,
                                   message: "missing file; a trace set needs \(TraceSetFile.requiredCSV.joined(separator: ", ")) (and may omit the files of a stream a spec synthesises)")
        }
        for name in names.sorted() where name.hasSuffix(".csv") && !TraceSetFile.allCSV.contains(name) {
            throw TraceFormatError(file: name, line: 0, column: 0,
                                   message: "unexpected CSV file; a trace set holds only \(TraceSetFile.allCSV.joined(separator: ", "))")
        }
        let present = Set(names.filter { TraceSetFile.allCSV.contains($0) })
        let power = TraceStream.power.files
        if power.contains(where: present.contains), let absent = power.first(where: { !present.contains($0) }) {
            throw TraceFormatError(file: absent, line: 0, column: 0,
                                   message: "missing file; the power stream is \(power.joined(separator: " and ")), both or neither")
        }
        if !present.contains(TraceSetFile.users), let orphan = power.first(where: present.contains) {
            throw TraceFormatError(file: TraceSetFile.users, line: 0, column: 0,
                                   message: "missing file; \(orphan) needs users.csv (the users' power constants)")
        }
        return present
    }

    /// Without users.csv, the users are those of sessions.csv, in order:
    /// each id once, rows grouped by user in increasing id order. Their
    /// profiles are placeholders (the power constants come from the power
    /// stream's synthesis; every app's Background App Refresh on).
    private static func usersOfSessions(_ dir: URL, appCount: Int, horizon: SimTime) throws -> [UserTrace] {
        var ids: [Int] = []
        try CSVRows.forEach(dir, TraceSetFile.sessions) { row in
            try row.expectCount()
            let id = try row.int(1, min: 0, what: "a user index >= 0")
            if let last = ids.last {
                if id == last { return }
                guard id > last else {
                    throw row.error(1, "expected rows grouped by user in increasing user order (there is no users.csv); user \(id) comes after user \(last)")
                }
            }
            ids.append(id)
        }
        return ids.map { id in
            let profile = UserProfile(
                index: id, intensity: .light, meanSessionsPerDay: 0, screenOnDrainWatts: 0, idleDrainWatts: 0,
                chargingWatts: 0, batteryCapacityWh: 0, initialBatteryPercent: 0,
                lowPowerModeAccept20Probability: 0, lowPowerModeAccept10Probability: 0,
                backgroundAppRefreshEnabled: Array(repeating: true, count: appCount))
            return UserTrace(profile: profile, horizon: horizon, sessions: [], charging: [], network: [],
                             contentUpdates: Array(repeating: [], count: appCount), lowPowerModeDecisions: [])
        }
    }

    private static func readTraceSetFile(_ dir: URL) throws -> Int {
        var days: Int?
        try CSVRows.forEach(dir, TraceSetFile.traceSet) { row in
            if days != nil { throw row.error(0, "expected exactly one data row") }
            try row.expectCount()
            guard row[0] == TraceSetFile.formatVersion else {
                throw row.error(1, "expected format \"\(TraceSetFile.formatVersion)\", found \"\(row[0])\"")
            }
            // Bounded so the horizon (days × 86 400 000 000 µs) fits: a
            // huge value is a clear error, not an overflow.
            days = try row.int(2, min: 1, max: TraceSetFile.maxDays, what: "the number of days")
        }
        guard let days else {
            throw TraceFormatError(file: TraceSetFile.traceSet, line: 2, column: 0,
                                   message: "expected one data row: format,days")
        }
        return days
    }

    private static func readApps(_ dir: URL) throws -> [TraceApp] {
        var apps: [TraceApp] = []
        try CSVRows.forEach(dir, TraceSetFile.apps) { row in
            try row.expectCount()
            let index = try row.int(1, min: 0, what: "the app index")
            guard index == apps.count else {
                throw row.error(1, "expected app index \(apps.count) (apps are numbered 0, 1, 2, ... in order), found \(index)")
            }
            let name = String(row[1])
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                throw row.error(2, "expected an app name of [a-z0-9_-]+, found \"\(name)\"")
            }
            if apps.contains(where: { $0.name == name }) { throw row.error(2, "duplicate app name \"\(name)\"") }
            let habit: Double? = row[6].isEmpty ? nil : try row.real(7, in: 0..<24, what: "a habit hour in [0, 24) or empty")
            apps.append(TraceApp(
                name: name,
                contentUpdatesPerHour: try row.real(3, min: 0, what: "updates per hour >= 0"),
                contentRhythmAmplitude: try row.real(4, in: 0..<1.000_000_1, what: "a rhythm amplitude in [0, 1]"),
                contentPeakHour: try row.real(5, in: 0..<24, what: "a peak hour in [0, 24)"),
                basePopularity: try row.real(6, min: 0, what: "a popularity >= 0"),
                habitHour: habit))
        }
        if apps.isEmpty {
            throw TraceFormatError(file: TraceSetFile.apps, line: 2, column: 0, message: "expected at least one app")
        }
        return apps
    }

    private static func readUsers(_ dir: URL, appCount: Int, horizon: SimTime) throws -> [UserTrace] {
        var users: [UserTrace] = []
        try CSVRows.forEach(dir, TraceSetFile.users) { row in
            try row.expectCount()
            let index = try row.int(1, min: 0, what: "a user index >= 0")
            if let last = users.last, index <= last.profile.index {
                throw row.error(1, "expected users in strictly increasing order (after user \(last.profile.index)), found \(index)")
            }
            guard let intensity = IntensityClass(rawValue: String(row[1])) else {
                throw row.error(2, "expected light, moderate or heavy, found \"\(row[1])\"")
            }
            var bar = [Bool](repeating: true, count: appCount)
            if !row[10].isEmpty {
                for part in row[10].split(separator: ";", omittingEmptySubsequences: false) {
                    guard let app = Int(part), (0..<appCount).contains(app) else {
                        throw row.error(11, "expected app indices in 0..<\(appCount) separated by ';', found \"\(part)\"")
                    }
                    bar[app] = false
                }
            }
            let profile = UserProfile(
                index: index, intensity: intensity,
                meanSessionsPerDay: try row.real(3, min: 0, what: "sessions per day >= 0"),
                screenOnDrainWatts: try row.real(4, min: 0, what: "a power in W >= 0"),
                idleDrainWatts: try row.real(5, min: 0, what: "a power in W >= 0"),
                chargingWatts: try row.real(6, min: 0, what: "a power in W >= 0"),
                batteryCapacityWh: try row.real(7, min: .leastNonzeroMagnitude, what: "a capacity in Wh > 0"),
                initialBatteryPercent: try row.real(8, in: 0..<100.000_000_1, what: "a battery level in [0, 100] %"),
                lowPowerModeAccept20Probability: try row.real(9, in: 0..<1.000_000_1, what: "a probability in [0, 1]"),
                lowPowerModeAccept10Probability: try row.real(10, in: 0..<1.000_000_1, what: "a probability in [0, 1]"),
                backgroundAppRefreshEnabled: bar)
            users.append(UserTrace(profile: profile, horizon: horizon, sessions: [], charging: [], network: [],
                                   contentUpdates: Array(repeating: [], count: appCount), lowPowerModeDecisions: []))
        }
        return users
    }

    /// The position of the row's user in `users`, checking that users come in
    /// the users.csv order. Inlined (as are `interval` and the field parsers)
    /// because it runs on every row of every per-user file.
    @inline(__always)
    private static func user(_ row: CSVRow, _ ctx: Context, after previous: Int?) throws -> Int {
        let id = try row.int(1, min: 0, what: "a user index")
        let known = id < ctx.dense.count ? (ctx.dense[id] >= 0 ? ctx.dense[id] : nil) : ctx.position[id]
        guard let pos = known else { throw row.error(1, "unknown user \(id): not in users.csv") }
        if let previous, pos < previous {
            throw row.error(1, "expected rows grouped by user in users.csv order; user \(id) comes after a later user")
        }
        return pos
    }

    /// [start, end) in columns 2 and 3, inside [0, horizon], start < end.
    @inline(__always)
    private static func interval(_ row: CSVRow, _ ctx: Context) throws -> (Int64, Int64) {
        // The messages capture the horizon alone, not `ctx` (capturing the
        // struct would retain its dictionary and arrays on every row).
        let horizon = ctx.horizon
        let s = try row.int64(2, in: 0...horizon, what: "a start time in µs in [0, \(horizon)] (the horizon)")
        let e = try row.int64(3, in: 0...horizon, what: "an end time in µs in [0, \(horizon)] (the horizon)")
        guard e > s else { throw row.error(3, "expected end_us > start_us (\(s)), found \(e)") }
        return (s, e)
    }

    private static func readSessions(_ dir: URL, _ ctx: Context, _ users: inout [UserTrace]) throws {
        // The current user's sessions are built in a local array and stored
        // when the user changes (rows are grouped by user): appending
        // through `users[pos]` row by row costs several times the parsing.
        var previous: Int?
        var current: [Session] = []
        var previousEnd = Int64.min  // of the current user's last session
        try CSVRows.forEach(dir, TraceSetFile.sessions) { row in
            try row.expectCount()
            let pos = try user(row, ctx, after: previous)
            if pos != previous {
                if let p = previous { users[p].sessions = current }
                current = users[pos].sessions
                previous = pos
                previousEnd = .min
            }
            let (s, e) = try interval(row, ctx)
            let app = try row.int(4, min: 0, what: "an app index")
            guard app < ctx.appCount else { throw row.error(4, "unknown app \(app): apps.csv has 0..<\(ctx.appCount)") }
            if s < previousEnd {
                throw row.error(2, "expected sessions sorted and not overlapping: start \(s) is before the previous session's end \(previousEnd)")
            }
            current.append(Session(start: SimTime(microseconds: s), end: SimTime(microseconds: e), app: app))
            previousEnd = e
        }
        if let p = previous { users[p].sessions = current }
    }

    private static func readCharging(_ dir: URL, _ ctx: Context, _ users: inout [UserTrace]) throws {
        var previous: Int?
        try CSVRows.forEach(dir, TraceSetFile.charging) { row in
            try row.expectCount()
            let pos = try user(row, ctx, after: previous)
            let (s, e) = try interval(row, ctx)
            if pos == previous, let last = users[pos].charging.last, s < last.end.microseconds {
                throw row.error(2, "expected charging intervals sorted and not overlapping: start \(s) is before the previous interval's end \(last.end.microseconds)")
            }
            users[pos].charging.append(ChargingInterval(start: SimTime(microseconds: s), end: SimTime(microseconds: e)))
            previous = pos
        }
    }

    /// Every user has exactly 2 · days rows: day 0 at 20 then 10, day 1, ...
    private static func readLowPowerMode(_ dir: URL, _ ctx: Context, _ users: inout [UserTrace]) throws {
        var previous: Int?
        var lastLine = 1
        func expectComplete(_ pos: Int, line: Int) throws {
            let n = users[pos].lowPowerModeDecisions.count
            guard n == 2 * ctx.days else {
                throw TraceFormatError(file: TraceSetFile.lowPowerMode, line: line, column: 0,
                                       message: "user \(users[pos].profile.index) has \(n) decisions; expected \(2 * ctx.days) (day 0..<\(ctx.days), thresholds 20 and 10)")
            }
        }
        try CSVRows.forEach(dir, TraceSetFile.lowPowerMode) { row in
            try row.expectCount()
            let pos = try user(row, ctx, after: previous)
            if let previous, pos != previous { try expectComplete(previous, line: row.line) }
            let firstUnseen = previous.map { $0 + 1 } ?? 0
            if pos > firstUnseen { for skipped in firstUnseen..<pos { try expectComplete(skipped, line: row.line) } }
            let n = users[pos].lowPowerModeDecisions.count
            let day = try row.int(2, min: 0, what: "a day index")
            let threshold = try row.int(3, min: 0, what: "20 or 10")
            let accepts = try row.bool(4)
            guard day == n / 2 else {
                throw row.error(2, "expected day \(n / 2) (one row per day and threshold, days in order, each day 0..<\(ctx.days) once), found \(day)")
            }
            guard day < ctx.days else { throw row.error(2, "expected a day in 0..<\(ctx.days), found \(day)") }
            let expected = n % 2 == 0 ? 20 : 10
            guard threshold == expected else { throw row.error(3, "expected threshold \(expected) (20 then 10 each day), found \(threshold)") }
            users[pos].lowPowerModeDecisions.append(LowPowerModeDecision(day: day, thresholdPercent: threshold, accepts: accepts))
            previous = pos
            lastLine = row.line
        }
        let from = previous ?? 0
        for pos in from..<users.count { try expectComplete(pos, line: lastLine + 1) }
    }

    /// Every user's intervals tile [0, horizon): first at 0, each starting at
    /// the previous end, last ending at the horizon.
    private static func readNetwork(_ dir: URL, _ ctx: Context, _ users: inout [UserTrace]) throws {
        var previous: Int?
        var lastLine = 1
        func expectComplete(_ pos: Int, line: Int) throws {
            let end = users[pos].network.last?.end.microseconds
            guard end == ctx.horizon else {
                let found = end.map { "they end at \($0)" } ?? "there are none"
                throw TraceFormatError(file: TraceSetFile.network, line: line, column: 0,
                                       message: "user \(users[pos].profile.index): expected network intervals tiling [0, \(ctx.horizon)); \(found)")
            }
        }
        try CSVRows.forEach(dir, TraceSetFile.network) { row in
            try row.expectCount()
            let pos = try user(row, ctx, after: previous)
            if let previous, pos != previous { try expectComplete(previous, line: row.line) }
            let firstUnseen = previous.map { $0 + 1 } ?? 0
            if pos > firstUnseen { for skipped in firstUnseen..<pos { try expectComplete(skipped, line: row.line) } }
            let (s, e) = try interval(row, ctx)
            let expectedStart = users[pos].network.last?.end.microseconds ?? 0
            guard s == expectedStart else {
                let what = s < expectedStart ? "overlaps the previous interval" : "leaves a gap"
                throw row.error(2, "expected start_us \(expectedStart) (intervals tile [0, horizon) with no gaps or overlaps); \(s) \(what)")
            }
            guard let kind = NetworkKind(rawValue: String(row[3])) else {
                throw row.error(4, "expected wifi, cellular or offline, found \"\(row[3])\"")
            }
            users[pos].network.append(NetworkInterval(start: SimTime(microseconds: s), end: SimTime(microseconds: e), kind: kind))
            previous = pos
            lastLine = row.line
        }
        let from = previous ?? 0
        for pos in from..<users.count { try expectComplete(pos, line: lastLine + 1) }
    }

    private static func readContent(_ dir: URL, _ ctx: Context, _ users: inout [UserTrace]) throws {
        // As for sessions: the current user's updates in a local array, and
        // the current app's in another (rows are sorted by app within a
        // user), moved out of it while filled so that each row appends to
        // one uniquely held array rather than through two subscripts.
        var previous: Int?
        var previousApp = 0
        var previousTime = Int64.min  // of the current user and app's last update
        let horizon = ctx.horizon  // captured alone (see `interval`)
        var current: [[SimTime]] = []
        var times: [SimTime] = []  // current[previousApp], moved out
        try CSVRows.forEach(dir, TraceSetFile.contentUpdates) { row in
            try row.expectCount()
            let pos = try user(row, ctx, after: previous)
            if pos != previous {
                if let p = previous {
                    current[previousApp] = times
                    users[p].contentUpdates = current
                }
                current = users[pos].contentUpdates
                previous = pos
                previousApp = 0
                previousTime = .min
                times = current[0]
                current[0] = []
            }
            let app = try row.int(2, min: 0, what: "an app index")
            guard app < ctx.appCount else { throw row.error(2, "unknown app \(app): apps.csv has 0..<\(ctx.appCount)") }
            if app < previousApp {
                throw row.error(2, "expected a user's rows sorted by app, then time; app \(app) comes after app \(previousApp)")
            }
            let t = try row.int64(3, in: 0...(horizon - 1), what: "a time in µs in [0, \(horizon)) (the horizon)")
            if app == previousApp, t < previousTime {
                throw row.error(3, "expected times in non-decreasing order; \(t) is before the previous update \(previousTime)")
            }
            if app != previousApp {
                current[previousApp] = times
                times = current[app]
                current[app] = []
            }
            times.append(SimTime(microseconds: t))
            previousApp = app
            previousTime = t
        }
        if let p = previous {
            current[previousApp] = times
            users[p].contentUpdates = current
        }
    }
}
