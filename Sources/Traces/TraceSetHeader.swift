// What a trace set holds besides the per-user rows: the directory's files,
// traceset.csv, apps.csv, users.csv (or the user ids of sessions.csv) and
// generator.json, read and checked strictly (formats: Datasets/README.md).
// It is what a reader needs before the first user's rows, and all that is
// held for the whole set while users stream (`TraceSetStream`).
import Foundation
import SimCore

/// The apps, the horizon and the user list of a trace set, without the
/// users' sessions, charging, Low Power Mode, network and content rows.
public struct TraceSetHeader: Sendable {
    public var apps: [TraceApp]
    /// Length of every trace, in days.
    public var days: Int
    /// The users in users.csv order (ids strictly increasing). Without
    /// users.csv: placeholders for the ids of sessions.csv, whose mean
    /// sessions a day is 0 until the user's sessions are read.
    public var profiles: [UserProfile]
    public var provenance: TraceProvenance?
    /// The streams whose files the directory lacks (`TraceSet.missingStreams`).
    public var missingStreams: Set<TraceStream>
    /// False when the directory has no users.csv (`TraceSet.hasUsersFile`).
    public var hasUsersFile: Bool
    /// Whether the directory has battery_level.csv (`TraceSet.hasBatteryLevel`).
    public var hasBatteryLevel: Bool
    /// The CSV files the directory has: all but the omitted streams' (and
    /// users.csv without `hasUsersFile`), as `read` checks.
    var present: Set<String> {
        var files = Set(TraceSetFile.allCSV).subtracting(missingStreams.flatMap(\.files))
        if !hasUsersFile { files.remove(TraceSetFile.users) }
        if hasBatteryLevel { files.insert(TraceSetFile.batteryLevel) }
        return files
    }

    public var horizon: SimTime { SimTime(day: days) }

    public init(apps: [TraceApp], days: Int, profiles: [UserProfile], provenance: TraceProvenance? = nil,
                missingStreams: Set<TraceStream> = [], hasUsersFile: Bool = true, hasBatteryLevel: Bool = false) {
        self.apps = apps; self.days = days; self.profiles = profiles; self.provenance = provenance
        self.missingStreams = missingStreams; self.hasUsersFile = hasUsersFile; self.hasBatteryLevel = hasBatteryLevel
    }

    /// Reads and checks everything but the per-user rows of `directory`.
    public static func read(directory: URL) throws -> TraceSetHeader {
        let present = try checkDirectory(directory)
        let hasUsersFile = present.contains(TraceSetFile.users)
        let missing = Set(TraceStream.allCases.filter { !present.contains($0.files[0]) })
        let days = try readTraceSetFile(directory)
        var apps = try readApps(directory)
        let profiles = hasUsersFile
            ? try readUsers(directory, appCount: apps.count)
            : try usersOfSessions(directory, appCount: apps.count)
        // A set without users has nothing to simulate and no statistics
        // (every mean would be 0/0).
        guard !profiles.isEmpty else {
            let file = hasUsersFile ? TraceSetFile.users : TraceSetFile.sessions
            throw TraceFormatError(file: file, line: 2, column: 0, message: "expected at least one user; the file has a header and no data row")
        }
        var provenance: TraceProvenance?
        let generator = directory.appendingPathComponent(TraceSetFile.generator)
        if FileManager.default.fileExists(atPath: generator.path) {
            let expected = "expected the JSON object `bgbench traces generate` writes (seed, users, days and parameters; Datasets/README.md), or no generator.json at all"
            let bytes: Data
            do { bytes = try Data(contentsOf: generator) } catch {
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0,
                                       message: "cannot read (\(error.localizedDescription))")
            }
            do {
                provenance = try JSONDecoder().decode(TraceProvenance.self, from: bytes)
            } catch DecodingError.dataCorrupted(let c) where c.codingPath.isEmpty {
                // Not JSON at all (Foundation says only "not valid JSON"):
                // say how much is there and how it ends, which tells a file
                // cut short from one overwritten.
                let text = String(decoding: bytes, as: UTF8.self)
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                let what = trimmed.isEmpty ? "the file is empty"
                    : "the file is not valid JSON (\(bytes.count) bytes, \(text.split(separator: "\n", omittingEmptySubsequences: false).count) line(s), ending in \"\(trimmed.suffix(24).replacingOccurrences(of: "\n", with: "\\n"))\": cut short, or not JSON)"
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0, message: "\(what); \(expected)")
            } catch let error as DecodingError {
                let (path, problem) = DecodingErrorText.describe(error)
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0,
                                       message: "\(path.isEmpty ? "" : "at $\(path): ")\(problem); expected the generator's seed, users, days and parameters as JSON (Datasets/README.md)")
            } catch {
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0,
                                       message: "cannot read (\(error.localizedDescription))")
            }
            if let p = provenance, p.days != days || p.users != profiles.count {
                throw TraceFormatError(file: TraceSetFile.generator, line: 0, column: 0,
                                       message: "expected days \(days) and users \(profiles.count) as in the CSV files, found days \(p.days) and users \(p.users)")
            }
        }
        // apps.csv does not hold the generator-only traits: restore them
        // from generator.json for apps of the same name.
        if let p = provenance {
            let traits = Dictionary(p.parameters.apps.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            apps = apps.map { a in traits[a.name].map { a.withTraits(of: $0) } ?? a }
        }
        return TraceSetHeader(apps: apps, days: days, profiles: profiles, provenance: provenance,
                              missingStreams: missing, hasUsersFile: hasUsersFile,
                              hasBatteryLevel: present.contains(TraceSetFile.batteryLevel))
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
        for name in names.sorted() where name.hasSuffix(".csv") && !TraceSetFile.knownCSV.contains(name) {
            throw TraceFormatError(file: name, line: 0, column: 0,
                                   message: "unexpected CSV file; a trace set holds only \(TraceSetFile.knownCSV.joined(separator: ", "))")
        }
        let present = Set(names.filter { TraceSetFile.knownCSV.contains($0) })
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
    private static func usersOfSessions(_ dir: URL, appCount: Int) throws -> [UserProfile] {
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
            UserProfile(
                index: id, intensity: .light, meanSessionsPerDay: 0, screenOnDrainWatts: 0, idleDrainWatts: 0,
                chargingWatts: 0, batteryCapacityWh: 0, initialBatteryPercent: 0,
                lowPowerModeAccept20Probability: 0, lowPowerModeAccept10Probability: 0,
                backgroundAppRefreshEnabled: Array(repeating: true, count: appCount))
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
        let apps: [TraceApp] = try CSVRows.values(dir, TraceSetFile.apps) { row, apps in
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
            return TraceApp(
                name: name,
                contentUpdatesPerHour: try row.real(3, min: 0, what: "updates per hour >= 0"),
                contentRhythmAmplitude: try row.real(4, in: 0..<1.000_000_1, what: "a rhythm amplitude in [0, 1]"),
                contentPeakHour: try row.real(5, in: 0..<24, what: "a peak hour in [0, 24)"),
                basePopularity: try row.real(6, min: 0, what: "a popularity >= 0"),
                habitHour: habit)
        }
        if apps.isEmpty {
            throw TraceFormatError(file: TraceSetFile.apps, line: 2, column: 0, message: "expected at least one app")
        }
        return apps
    }

    private static func readUsers(_ dir: URL, appCount: Int) throws -> [UserProfile] {
        try CSVRows.values(dir, TraceSetFile.users) { row, users in
            let index = try row.int(1, min: 0, what: "a user index >= 0")
            if let last = users.last, index <= last.index {
                throw row.error(1, "expected users in strictly increasing order (after user \(last.index)), found \(index)")
            }
            guard let intensity = IntensityClass(rawValue: String(row[1])) else {
                throw row.error(2, "expected light, moderate or heavy, found \"\(row[1])\"")
            }
            var bar = [Bool](repeating: true, count: appCount)
            if !row[10].isEmpty {
                for part in row[10].split(separator: ";", omittingEmptySubsequences: false) {
                    guard let app = DecimalText.wholeNumber(part), (0..<appCount).contains(app) else {
                        throw row.error(11, "expected app indices in 0..<\(appCount) separated by ';', found \"\(part)\"")
                    }
                    bar[app] = false
                }
            }
            return UserProfile(
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
        }
    }
}

extension TraceSet {
    /// The set without its per-user rows.
    public var header: TraceSetHeader {
        TraceSetHeader(apps: apps, days: days, profiles: users.map(\.profile), provenance: provenance,
                       missingStreams: missingStreams, hasUsersFile: hasUsersFile, hasBatteryLevel: hasBatteryLevel)
    }
}
