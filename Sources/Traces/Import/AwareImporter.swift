// AWARE tables → a trace set. Each device is a user; its sessions come from
// applications_foreground (bounded by the screen) or, without it, from the
// screen alone (apps drawn by the generator's per-user popularity); charging
// and the measured battery level from battery; connectivity from network.
// What the tables do not hold is drawn at import (the power constants and
// Low Power Mode answers, from `--seed`) or left for the spec to synthesise
// (network without a network table, content always). The rules, and what
// they leave out: Datasets/README.md ("Importing AWARE tables").
import Foundation
import SimCore
import Stats

/// What an AWARE import read, repaired and left out, for the report.
public struct AwareImportReport: Sendable, Equatable {
    /// Rows read per table.
    public var rows: [String: Int] = [:]
    /// Rows whose time is before the previous row's of the same device and
    /// table (a clock set back, uploads merged): put in time order.
    public var rowsOutOfOrder = 0
    /// Rows equal to the previous one (same time and values): dropped.
    public var duplicateRowsDropped = 0
    /// Rows at the same time as the previous one with other values: the
    /// later row (in the file) is kept.
    public var sameTimeRowsReplaced = 0
    /// Local times held back to the previous row's (the repeated hour when
    /// the clocks go back).
    public var localTimesHeld = 0
    /// Screen turned on and off again without an unlock (a glance at the
    /// lock screen): no session.
    public var glancesIgnored = 0
    /// Foreground rows of a launcher or the system UI (no app in front):
    /// they end the session in front.
    public var launcherRows = 0
    /// Foreground rows while the screen is off or locked: ignored.
    public var appRowsWhileScreenOff = 0
    /// Sessions written.
    public var sessions = 0
    /// Devices with no session and no battery reading: left out.
    public var devicesDropped = 0
    /// One line per stream: where it came from.
    public var streams: [String] = []

    public var lines: [String] {
        var out = rows.keys.sorted().map { "\($0) rows read: \(rows[$0]!)" }
        let counts: [(String, Int)] = [
            ("sessions written", sessions), ("rows out of time order (sorted)", rowsOutOfOrder),
            ("duplicate rows dropped", duplicateRowsDropped), ("rows at the same time as the previous one (the later kept)", sameTimeRowsReplaced),
            ("local times held at a clock change", localTimesHeld), ("screen glances without an unlock (no session)", glancesIgnored),
            ("launcher or system UI rows (end the session)", launcherRows),
            ("app rows while the screen is off (ignored)", appRowsWhileScreenOff),
            ("devices without sessions or battery readings dropped", devicesDropped),
        ]
        out += counts.filter { $0.1 > 0 || $0.0 == "sessions written" }.map { "\($0.0): \($0.1)" }
        return out + streams
    }
}

public enum AwareImporter {
    /// Without a screen table, a foreground app is taken to stay in front
    /// at most this long (the phone put down with the app open): 30 min,
    /// an assumption.
    public static let sessionCapWithoutScreen: Int64 = 30 * 60 * 1_000_000

    /// Reads the AWARE tables in `inputs` (files, or directories of `.csv`
    /// files) and builds the trace set; times are converted to the local
    /// time of `timeZone` at each instant. Errors name the file, line and
    /// column; nothing is repaired silently (the report counts it).
    public static func importTables(_ inputs: [URL], seed: UInt64, timeZone: TimeZone,
                                    parameters: GeneratorParameters = .default) throws -> (set: TraceSet, report: AwareImportReport) {
        var report = AwareImportReport()
        var tables: [AwareTable: [String: [AwareRow]]] = [:]
        var devices: [String] = []
        let files = try AwareTables.files(inputs)
        // A problem of the whole set (a table missing, no device) belongs to
        // no one file: it names what was given.
        let given = inputs.map(\.path).joined(separator: ", ")
        guard !files.isEmpty else {
            throw TraceFormatError(file: given, line: 0, column: 0, message: "no .csv file to import")
        }
        for url in files {
            let (table, rows, order) = try AwareTables.read(url)
            for id in order {
                if !devices.contains(id) { devices.append(id) }
                tables[table, default: [:]][id, default: []] += rows[id]!
                report.rows[table.rawValue, default: 0] += rows[id]!.count
            }
            if order.isEmpty { report.rows[table.rawValue, default: 0] += 0 }  // an empty table is still listed
        }
        guard tables[.screen] != nil || tables[.applicationsForeground] != nil else {
            throw TraceFormatError(file: given, line: 0, column: 0,
                                   message: "no applications_foreground or screen table: the sessions come from one of them")
        }

        // Per device and table: rows in time order, deduplicated, in local µs.
        func prepared(_ table: AwareTable, _ id: String) -> [AwareRow] {
            guard let raw = tables[table]?[id] else { return [] }
            report.rowsOutOfOrder += zip(raw, raw.dropFirst()).filter { $0.1.time < $0.0.time }.count
            let sorted = raw.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            var out: [AwareRow] = []
            for r in sorted {
                if let last = out.last, last.time == r.time {
                    if last.values == r.values && last.package == r.package { report.duplicateRowsDropped += 1 } else {
                        report.sameTimeRowsReplaced += 1
                        out[out.count - 1] = r
                    }
                    continue
                }
                out.append(r)
            }
            var previous = Int64.min
            for i in out.indices {
                let seconds = Double(out[i].time / 1_000_000)
                let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))) * 1_000_000
                var local = out[i].time + offset
                if local < previous { local = previous; report.localTimesHeld += 1 }
                out[i].time = local
                previous = local
            }
            return out
        }

        struct Device { var id: String; var battery, screen, apps, network: [AwareRow]; var origin: Int64 = 0 }
        var built: [Device] = []
        for id in devices {
            var d = Device(id: id, battery: prepared(.battery, id), screen: prepared(.screen, id),
                           apps: prepared(.applicationsForeground, id), network: prepared(.network, id))
            let first = [d.battery, d.screen, d.apps, d.network].compactMap { $0.first?.time }.min()!
            // Day 0 of every trace is a Monday: the Monday on or before the first row.
            let day = first >= 0 ? first / SimDuration.microsecondsPerDay : (first - SimDuration.microsecondsPerDay + 1) / SimDuration.microsecondsPerDay
            let weekday = ((day + 3) % 7 + 7) % 7  // 1970-01-01 was a Thursday; 0 = Monday
            d.origin = (day - weekday) * SimDuration.microsecondsPerDay
            built.append(d)
        }
        let last = built.map { d in [d.battery, d.screen, d.apps, d.network].compactMap { $0.last?.time }.max()! - d.origin }
        let days = max(1, Int((last.max()! + SimDuration.microsecondsPerDay) / SimDuration.microsecondsPerDay))
        guard days <= TraceSetFile.maxDays else {
            let longest = built[last.firstIndex(of: last.max()!)!].id
            throw TraceFormatError(file: given, line: 0, column: 0,
                                   message: "device \(longest)'s rows span \(days) days; at most \(TraceSetFile.maxDays) are allowed")
        }
        let horizon = Int64(days) * SimDuration.microsecondsPerDay

        // Apps: the packages in front (names as the LSApp import maps
        // them), else the catalogue, drawn per session.
        let fromApps = tables[.applicationsForeground] != nil
        let packages = Array(Set(built.flatMap { $0.apps.map(\.package) }.filter { !isLauncher($0) })).sorted()
        let apps = fromApps ? ImportedApps.apps(for: packages) : TraceApp.defaultApps
        let index = Dictionary(uniqueKeysWithValues: packages.enumerated().map { ($1, $0) })
        let usage = UsageGenerator(parameters: parameters.usage, structure: parameters.structure, apps: apps)

        var users: [UserTrace] = []
        for d in built {
            let position = users.count
            var raw: [(start: Int64, end: Int64, app: Int)] = []
            if fromApps {
                raw = appSessions(d.apps, screen: d.screen, index: index, report: &report)
            } else {
                let rng = RandomStream(seed: seed, user: position, stream: PopulationGenerator.streamNames.usage)
                let weight = usage.profile(using: rng).weight
                let total = weight.reduce(0, +)
                raw = screenSessions(d.screen, report: &report).map { s in
                    var u = rng.uniform() * total, app = 0
                    while app < weight.count - 1 && u >= weight[app] { u -= weight[app]; app += 1 }
                    return (s.start, s.end, app)
                }
            }
            // A session running past the last row (the 30-min cap) ends at the horizon.
            let sessions = raw.map {
                Session(start: SimTime(microseconds: $0.start - d.origin),
                        end: SimTime(microseconds: min($0.end - d.origin, horizon)), app: $0.app)
            }
            if sessions.isEmpty && d.battery.isEmpty { report.devicesDropped += 1; continue }
            let charging = chargingIntervals(d.battery, origin: d.origin)
            let readings = d.battery.map { BatteryLevelSample(time: SimTime(microseconds: $0.time - d.origin), percent: Double($0.values[0])) }
            let network = tables[.network] == nil ? [] : networkIntervals(d.network, origin: d.origin, horizon: horizon)
            let profile = UserProfile(
                index: position, intensity: usage.intensityClass(sessionsPerDay: Double(sessions.count) / Double(days)),
                meanSessionsPerDay: Double(sessions.count) / Double(days),
                screenOnDrainWatts: 0, idleDrainWatts: 0, chargingWatts: 0, batteryCapacityWh: 0,
                initialBatteryPercent: 0, lowPowerModeAccept20Probability: 0, lowPowerModeAccept10Probability: 0,
                backgroundAppRefreshEnabled: Array(repeating: true, count: apps.count))
            users.append(UserTrace(profile: profile, horizon: SimTime(microseconds: horizon), sessions: sessions,
                                   charging: charging, network: network,
                                   contentUpdates: Array(repeating: [], count: apps.count),
                                   lowPowerModeDecisions: [], batteryLevel: readings))
            report.sessions += sessions.count
        }
        guard !users.isEmpty else {
            throw TraceFormatError(file: given, line: 0, column: 0, message: "no device has a session or a battery reading")
        }

        var missing: Set<TraceStream> = [.content]
        if tables[.network] == nil { missing.insert(.network) }
        let hasBattery = tables[.battery] != nil
        if !hasBattery { missing.insert(.power) }
        var set = TraceSet(apps: apps, days: days, users: users, missingStreams: missing,
                           hasUsersFile: hasBattery, hasBatteryLevel: hasBattery)
        if hasBattery {
            // The tables have no drains, charger power, capacity or Low Power
            // Mode answers: drawn from the seed as the power generator draws
            // them; the charging intervals and the initial level are the
            // table's.
            let synthesiser = StreamSynthesiser(streams: [.power], parameters: parameters, set: set)
            set.users = set.users.map { u in
                var t = synthesiser.complete(u, seed: seed)
                t.charging = u.charging
                if let first = u.batteryLevel.first { t.profile.initialBatteryPercent = first.percent }
                return t
            }
        }
        let sessionSource = fromApps
            ? "sessions: applications_foreground\(tables[.screen] != nil ? ", bounded by screen" : " (no screen table: each at most 30 min)")"
            : "sessions: screen (one session per unlock); apps drawn from seed \(seed) by the generator's per-user popularity over the \(apps.count) catalogue apps"
        report.streams = [
            sessionSource,
            hasBattery ? "power: charging intervals and battery_level.csv from battery; drains, charger power, capacity, Low Power Mode answers and Background App Refresh switches drawn from seed \(seed)"
                       : "power: no battery table; left out, a spec synthesises it (\"synthesise\": [\"power\"])",
            tables[.network] != nil ? "network: from network" : "network: no network table; left out, a spec synthesises it (\"synthesise\": [\"network\"])",
            "content: not in AWARE tables; left out, a spec synthesises it (\"synthesise\": [\"content\"])",
        ]
        return (set, report)
    }

    /// A launcher or the system UI in front: no app (a home screen, the
    /// notification shade).
    static func isLauncher(_ package: String) -> Bool {
        package.lowercased().contains("launcher") || package == "com.android.systemui"
    }

    /// Screen on/off rows → sessions: from an unlock (3) to the next off (0)
    /// or lock (2). The screen lit without an unlock (1 then 0 or 2) is a
    /// glance at the lock screen: no app in front, no session.
    static func screenSessions(_ rows: [AwareRow], report: inout AwareImportReport) -> [(start: Int64, end: Int64)] {
        var out: [(start: Int64, end: Int64)] = []
        var unlockedAt: Int64? = nil
        var lit = false
        for r in rows {
            switch r.values[0] {
            case 3:
                if unlockedAt == nil { unlockedAt = r.time }
                lit = false
            case 1:
                lit = unlockedAt == nil
            default:  // 0 off, 2 locked
                if let s = unlockedAt, r.time > s { out.append((s, r.time)) }
                if lit { report.glancesIgnored += 1 }
                unlockedAt = nil
                lit = false
            }
        }
        return out
    }

    /// Foreground rows → sessions: each app is in front from its row to the
    /// next row, the screen going off or locked, or (without a screen
    /// table) 30 min, whichever comes first.
    static func appSessions(_ rows: [AwareRow], screen: [AwareRow], index: [String: Int],
                            report: inout AwareImportReport) -> [(start: Int64, end: Int64, app: Int)] {
        var out: [(start: Int64, end: Int64, app: Int)] = []
        var si = 0
        var screenOn = screen.isEmpty
        var current: (start: Int64, app: Int)? = nil
        func close(at t: Int64) {
            if let c = current, t > c.start { out.append((c.start, t, c.app)) }
            current = nil
        }
        for r in rows {
            while si < screen.count && screen[si].time <= r.time {
                let on = screen[si].values[0] == 1 || screen[si].values[0] == 3
                if !on { close(at: screen[si].time) }
                screenOn = on
                si += 1
            }
            if let c = current, screen.isEmpty, r.time - c.start > sessionCapWithoutScreen { close(at: c.start + sessionCapWithoutScreen) }
            guard screenOn else { report.appRowsWhileScreenOff += 1; continue }
            if isLauncher(r.package) { report.launcherRows += 1; close(at: r.time); continue }
            let app = index[r.package]!
            if current?.app == app { continue }
            close(at: r.time)
            current = (r.time, app)
        }
        // The last app in front: to the next screen-off, else the cap.
        if let c = current {
            let off = screen[si...].first { $0.values[0] == 0 || $0.values[0] == 2 }?.time
            close(at: off ?? (c.start + sessionCapWithoutScreen))
        }
        return out
    }

    /// Battery rows → charging intervals (local µs since `origin`): the
    /// phone is on external power from a row with an adaptor (AC, USB,
    /// wireless) or the status "charging" to the next row with neither; the
    /// state holds between rows (AWARE writes a row when something changes);
    /// the last interval ends at the last row.
    static func chargingIntervals(_ rows: [AwareRow], origin: Int64) -> [ChargingInterval] {
        var out: [ChargingInterval] = []
        var since: Int64? = nil
        for r in rows {
            let plugged = r.values[2] != 0 || r.values[1] == 2
            if plugged, since == nil { since = r.time }
            if !plugged, let s = since {
                if r.time > s { out.append(ChargingInterval(start: SimTime(microseconds: s - origin), end: SimTime(microseconds: r.time - origin))) }
                since = nil
            }
        }
        if let s = since, let end = rows.last?.time, end > s {
            out.append(ChargingInterval(start: SimTime(microseconds: s - origin), end: SimTime(microseconds: end - origin)))
        }
        return out
    }

    /// Network rows → intervals tiling [0, horizon): Wi-Fi while Wi-Fi is
    /// on, else cellular while mobile is on, else offline; airplane mode on
    /// turns both off. Before the first row the device is as after it.
    static func networkIntervals(_ rows: [AwareRow], origin: Int64, horizon: Int64) -> [NetworkInterval] {
        var wifi = false, mobile = false
        var changes: [(Int64, NetworkKind)] = []
        for r in rows {
            let on = r.values[1] == 1
            switch r.values[0] {
            case 1: wifi = on
            case 4: mobile = on
            case -1: if on { wifi = false; mobile = false }
            default: continue  // Bluetooth, GPS, WiMAX: not a data connection BGBench models
            }
            changes.append((r.time - origin, wifi ? .wifi : mobile ? .cellular : .offline))
        }
        var out: [NetworkInterval] = []
        var kind = changes.first?.1 ?? .offline
        var start: Int64 = 0
        for (t, k) in changes where k != kind {
            if t > start {
                out.append(NetworkInterval(start: SimTime(microseconds: start), end: SimTime(microseconds: t), kind: kind))
                start = t
            }
            kind = k
        }
        out.append(NetworkInterval(start: SimTime(microseconds: start), end: SimTime(microseconds: horizon), kind: kind))
        return out
    }
}
