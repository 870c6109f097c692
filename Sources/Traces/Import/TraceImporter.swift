// A real app-usage log → a trace set: the sessions come from the log, the
// streams the log does not have (power, network, content) are synthesised
// by the generators, seeded per user as for a synthetic population
// (`RandomStream(seed:user:stream:)` with the user's position in the log).
import Foundation
import SimCore
import Stats

public enum TraceImporter {
    /// Reads `url` in `format` and builds the trace set; `report` says what
    /// was repaired or dropped. Errors name the file, line and column. With
    /// `sessionsOnly`, the set has the sessions alone (no users.csv, power,
    /// network or content: a spec synthesises them).
    public static func importLog(_ url: URL, format: AppEventLogFormat, seed: UInt64,
                                 parameters: GeneratorParameters = .default,
                                 sessionsOnly sessionsOnlyOutput: Bool = false) throws -> (set: TraceSet, report: ImportReport) {
        let users = try AppEventLog.read(url, format: format)
        var report = ImportReport()
        var built: [(id: String, origin: Int64, sessions: [(start: Int64, end: Int64, app: String)])] = []
        for (id, events) in users {
            let (sessions, r) = SessionBuilder.sessions(events)
            report = report + r
            guard let first = sessions.first else { report.usersWithoutSessionsDropped += 1; continue }
            // Day 0 of every trace is a Monday: the Monday on or before the first session.
            let day = first.start >= 0 ? first.start / 86_400 : (first.start - 86_399) / 86_400
            let weekday = ((day + 3) % 7 + 7) % 7  // 1970-01-01 was a Thursday; 0 = Monday
            built.append((id, (day - weekday) * 86_400, sessions))
        }
        guard !built.isEmpty else {
            throw TraceFormatError(file: url.lastPathComponent, line: 0, column: 0, message: "no session could be built from the log")
        }
        let days = built.map { u in Int(((u.sessions.last!.end - u.origin) + 86_399) / 86_400) }.max()!
        guard days <= TraceSetFile.maxDays else {
            throw TraceFormatError(file: url.lastPathComponent, line: 0, column: 0,
                                   message: "a user's log spans \(days) days; at most \(TraceSetFile.maxDays) are allowed")
        }

        // Apps: every name in the log, sorted, mapped to [a-z0-9_-]+ and to a
        // content behaviour by category (`ImportedApps`).
        let names = Array(Set(built.flatMap { $0.sessions.map(\.app) })).sorted()
        let apps = ImportedApps.apps(for: names)
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })

        // The sessions alone, then every other stream from the synthesiser,
        // as a spec synthesises them from a sessions-only set
        // (`StreamSynthesiser`: the same draws, user i keyed by its position).
        var sessionsOnly: [UserTrace] = []
        for (i, u) in built.enumerated() {
            let sessions = u.sessions.map {
                Session(start: SimTime(microseconds: ($0.start - u.origin) * 1_000_000),
                        end: SimTime(microseconds: ($0.end - u.origin) * 1_000_000), app: index[$0.app]!)
            }
            let profile = UserProfile(
                index: i, intensity: .light, meanSessionsPerDay: Double(sessions.count) / Double(days),
                screenOnDrainWatts: 0, idleDrainWatts: 0, chargingWatts: 0, batteryCapacityWh: 0,
                initialBatteryPercent: 0, lowPowerModeAccept20Probability: 0, lowPowerModeAccept10Probability: 0,
                backgroundAppRefreshEnabled: Array(repeating: true, count: apps.count))
            sessionsOnly.append(UserTrace(profile: profile, horizon: SimTime(day: days), sessions: sessions, charging: [],
                                          network: [], contentUpdates: Array(repeating: [], count: apps.count),
                                          lowPowerModeDecisions: []))
        }
        let bare = TraceSet(apps: apps, days: days, users: sessionsOnly, provenance: nil,
                            missingStreams: Set(TraceStream.allCases), hasUsersFile: false)
        if sessionsOnlyOutput { return (bare, report) }
        let synthesiser = StreamSynthesiser(streams: Set(TraceStream.allCases), parameters: parameters, set: bare)
        let traces = sessionsOnly.map { synthesiser.complete($0, seed: seed) }
        return (TraceSet(apps: apps, days: days, users: traces, provenance: nil), report)
    }
}

/// Content behaviour of an imported app, guessed from its name (real logs
/// carry no content rates): a keyword picks the matching catalogue app's
/// rates and pattern (`TraceApp.defaultApps`); anything else is "other",
/// 0.5 updates an hour, Poisson. An assumption, said so in the report and
/// Datasets/README.md.
enum ImportedApps {
    static let keywords: [(String, String)] = [
        ("whatsapp", "messaging"), ("messenger", "messaging"), ("message", "messaging"), ("sms", "messaging"),
        ("telegram", "messaging"), ("signal", "messaging"), ("wechat", "messaging"), ("chat", "group-chat"),
        ("slack", "work-chat"), ("teams", "work-chat"), ("mail", "mail"), ("outlook", "mail"),
        ("facebook", "social"), ("twitter", "social"), ("instagram", "photos-social"), ("snapchat", "photos-social"),
        ("tiktok", "short-video"), ("youtube", "video"), ("netflix", "video"), ("news", "news"), ("weather", "weather"),
        ("spotify", "music"), ("music", "music"), ("podcast", "podcast"), ("game", "game"), ("chrome", "browser"),
        ("browser", "browser"), ("maps", "maps"), ("calendar", "calendar"), ("sport", "sports"),
    ]

    static func apps(for names: [String]) -> [TraceApp] {
        let catalogue = Dictionary(uniqueKeysWithValues: TraceApp.defaultApps.map { ($0.name, $0) })
        var used: Set<String> = []
        return names.map { raw in
            let lower = raw.lowercased()
            var name = String(lower.map { c -> Character in
                (c.isASCII && (c.isLowercase || c.isNumber)) || c == "_" || c == "-" ? c : "-"
            })
            if name.isEmpty { name = "app" }
            var unique = name, k = 2
            while used.contains(unique) { unique = "\(name)-\(k)"; k += 1 }
            used.insert(unique)
            var app = TraceApp(name: unique, contentUpdatesPerHour: 0.5, basePopularity: 0.1)
            if let model = model(forName: lower, catalogue: catalogue) {
                app = model
                app.name = unique
            }
            return app
        }
    }

    /// The catalogue app whose keyword `name` contains, if any (the first
    /// keyword of the list that matches).
    static func model(forName name: String, catalogue: [String: TraceApp]) -> TraceApp? {
        let lower = name.lowercased()
        return keywords.first(where: { lower.contains($0.0) }).flatMap { catalogue[$0.1] }
    }
}
