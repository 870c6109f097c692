// Writes a trace set as a directory of CSV files (Datasets/README.md).
// Bytes are deterministic: times as integer microseconds, reals in Swift's
// shortest round-trip form (`Double.description`, reads back exactly), rows
// in a fixed order, "\n" line ends. Each file is written to a temporary name
// and renamed, so a reader never sees half a file.
import Foundation
import SimCore

public enum TraceSetWriter {
    public static func write(_ set: TraceSet, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func header(_ file: String) -> String { TraceSetFile.headers[file]!.joined(separator: ",") + "\n" }
        func put(_ file: String, _ text: String) throws {
            let final = directory.appendingPathComponent(file)
            let temp = directory.appendingPathComponent(".\(file).tmp")
            try Data(text.utf8).write(to: temp)
            // POSIX rename replaces an existing file atomically.
            guard rename(temp.path, final.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: final.path])
            }
        }
        func real(_ x: Double) -> String { x.description }

        try put(TraceSetFile.traceSet, header(TraceSetFile.traceSet) + "\(TraceSetFile.formatVersion),\(set.days)\n")

        var text = header(TraceSetFile.apps)
        for (i, a) in set.apps.enumerated() {
            text += "\(i),\(a.name),\(real(a.contentUpdatesPerHour)),\(real(a.contentRhythmAmplitude)),"
            text += "\(real(a.contentPeakHour)),\(real(a.basePopularity)),\(a.habitHour.map(real) ?? "")\n"
        }
        try put(TraceSetFile.apps, text)

        text = header(TraceSetFile.users)
        for u in set.users {
            let p = u.profile
            let off = p.backgroundAppRefreshEnabled.enumerated().filter { !$0.element }.map { String($0.offset) }
            text += "\(p.index),\(p.intensity.rawValue),\(real(p.meanSessionsPerDay)),\(real(p.screenOnDrainWatts)),"
            text += "\(real(p.idleDrainWatts)),\(real(p.chargingWatts)),\(real(p.batteryCapacityWh)),"
            text += "\(real(p.initialBatteryPercent)),\(real(p.lowPowerModeAccept20Probability)),"
            text += "\(real(p.lowPowerModeAccept10Probability)),\(off.joined(separator: ";"))\n"
        }
        if set.hasUsersFile { try put(TraceSetFile.users, text) }

        text = header(TraceSetFile.sessions)
        for u in set.users {
            for s in u.sessions { text += "\(u.profile.index),\(s.start.microseconds),\(s.end.microseconds),\(s.app)\n" }
        }
        try put(TraceSetFile.sessions, text)

        text = header(TraceSetFile.charging)
        for u in set.users {
            for c in u.charging { text += "\(u.profile.index),\(c.start.microseconds),\(c.end.microseconds)\n" }
        }
        // The files of a stream the set omits are not written (Datasets/README.md).
        let power = !set.missingStreams.contains(.power)
        if power { try put(TraceSetFile.charging, text) }

        text = header(TraceSetFile.lowPowerMode)
        for u in set.users {
            for d in u.lowPowerModeDecisions {
                text += "\(u.profile.index),\(d.day),\(d.thresholdPercent),\(d.accepts ? 1 : 0)\n"
            }
        }
        if power { try put(TraceSetFile.lowPowerMode, text) }

        text = header(TraceSetFile.network)
        for u in set.users {
            for n in u.network {
                text += "\(u.profile.index),\(n.start.microseconds),\(n.end.microseconds),\(n.kind.rawValue)\n"
            }
        }
        if !set.missingStreams.contains(.network) { try put(TraceSetFile.network, text) }

        text = header(TraceSetFile.contentUpdates)
        for u in set.users {
            for (app, times) in u.contentUpdates.enumerated() {
                for t in times { text += "\(u.profile.index),\(app),\(t.microseconds)\n" }
            }
        }
        if !set.missingStreams.contains(.content) { try put(TraceSetFile.contentUpdates, text) }

        if set.hasBatteryLevel {
            text = header(TraceSetFile.batteryLevel)
            for u in set.users {
                for b in u.batteryLevel { text += "\(u.profile.index),\(b.time.microseconds),\(real(b.percent))\n" }
            }
            try put(TraceSetFile.batteryLevel, text)
        }

        if let provenance = set.provenance {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try put(TraceSetFile.generator, String(decoding: try encoder.encode(provenance), as: UTF8.self) + "\n")
        }
    }
}
