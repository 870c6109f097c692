// `traces import --format aware`: the niimpy month (Datasets/aware-niimpy)
// imports to the committed set byte for byte with the documented counts;
// foreground, screen and network tables map as Datasets/README.md says; a
// bad row is an error naming the file, line and column.
import Foundation
import SimCore
import TestSupport
import Traces
import XCTest

final class AwareImportTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Datasets/aware-niimpy").standardized
    static let tables = ["AwareBattery_1month.csv", "AwareScreen_1month.csv"].map { fixture.appendingPathComponent($0) }
    static let helsinki = TimeZone(identifier: "Europe/Helsinki")!

    func testTheNiimpyMonthImportsToTheCommittedSet() throws {
        let (set, report) = try AwareImporter.importTables(Self.tables, seed: 1, timeZone: Self.helsinki)
        XCTAssertEqual(report.rows, ["battery": 8_398, "screen": 5_278])
        XCTAssertEqual(report.rowsOutOfOrder, 2, "one row in each file is earlier than the row before it")
        XCTAssertEqual(report.duplicateRowsDropped, 0)
        XCTAssertEqual(report.sessions, 917, "one session per unlock")
        XCTAssertEqual(report.glancesIgnored, 581)
        XCTAssertEqual(set.users.count, 1)
        XCTAssertEqual(set.days, 33, "from Monday 2017-02-27 to the last row on Friday 2017-03-31")
        XCTAssertEqual(set.missingStreams, [.network, .content])
        let user = set.users[0]
        XCTAssertEqual(user.batteryLevel.count, 8_398)
        // First row: 1488315824.049 s UTC = 2017-02-28 23:03:44.049 in Helsinki (UTC+2), day 1 of the trace.
        XCTAssertEqual(user.batteryLevel[0].time, SimTime(microseconds: 86_400_000_000 + 83_024_049_000))
        XCTAssertEqual(user.batteryLevel[0].percent, 100)
        XCTAssertEqual(user.profile.initialBatteryPercent, 100, "the first reading")
        XCTAssertFalse(user.charging.isEmpty)
        // The committed set is this import, file for file.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(set, to: dir.url)
        let committed = Self.fixture.appendingPathComponent("month")
        let files = try FileManager.default.contentsOfDirectory(atPath: committed.path).sorted()
        XCTAssertEqual(files, try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted())
        for file in files {
            XCTAssertEqual(try Data(contentsOf: committed.appendingPathComponent(file)),
                           try Data(contentsOf: dir.url.appendingPathComponent(file)), "regenerate Datasets/aware-niimpy/month: \(file)")
        }
        // And it reads back, measured levels included.
        let read = try TraceSetReader.read(directory: committed)
        XCTAssertEqual(read.users[0].batteryLevel, user.batteryLevel)
        XCTAssertTrue(read.hasBatteryLevel)
    }

    /// Foreground rows bounded by the screen, launchers ending a session,
    /// per-device users, AWARE's ms timestamps, duplicates, and the network
    /// table, on a small hand-made export (UTC).
    func testForegroundScreenAndNetworkTablesMapAsDocumented() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // 2024-03-04 is a Monday: day 0. 08:00:00 UTC = 1709539200000 ms.
        let t0: Int64 = 1_709_539_200_000
        func ms(_ minutes: Int64) -> Int64 { t0 + minutes * 60_000 }
        try """
        _id,timestamp,device_id,package_name,application_name
        1,\(ms(1)),a,com.whatsapp,WhatsApp
        2,\(ms(3)),a,com.google.android.apps.nexuslauncher,Launcher
        3,\(ms(4)),a,com.bbc.news,BBC News
        4,\(ms(4)),a,com.bbc.news,BBC News
        5,\(ms(20)),a,com.whatsapp,WhatsApp
        6,\(ms(2)),b,com.whatsapp,WhatsApp

        """.write(to: dir.url.appendingPathComponent("applications_foreground.csv"), atomically: true, encoding: .utf8)
        try """
        _id,timestamp,device_id,screen_status
        1,\(ms(0)),a,1
        2,\(ms(0) + 500),a,3
        3,\(ms(10)),a,0
        4,\(ms(0)),b,3
        5,\(ms(5)),b,2

        """.write(to: dir.url.appendingPathComponent("screen.csv"), atomically: true, encoding: .utf8)
        try """
        _id,timestamp,device_id,network_type,network_subtype,network_state
        1,\(ms(0)),a,1,WIFI,1
        2,\(ms(30)),a,1,WIFI,0
        3,\(ms(31)),a,4,LTE,1
        4,\(ms(0)),b,4,LTE,1

        """.write(to: dir.url.appendingPathComponent("network.csv"), atomically: true, encoding: .utf8)
        let (set, report) = try AwareImporter.importTables([dir.url], seed: 1, timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(set.users.count, 2, "one user per device_id")
        XCTAssertEqual(set.apps.map(\.name), ["com-bbc-news", "com-whatsapp"])
        XCTAssertEqual(report.duplicateRowsDropped, 1)
        XCTAssertEqual(report.launcherRows, 1)
        XCTAssertEqual(report.appRowsWhileScreenOff, 1, "WhatsApp at 08:20 with the screen off since 08:10")
        let min = Int64(60_000_000), eight = 8 * 60 * min
        let a = set.users[0].sessions.map { ($0.start.microseconds - eight, $0.end.microseconds - eight, $0.app) }
        XCTAssertEqual(a.map(\.0), [1 * min, 4 * min])
        XCTAssertEqual(a.map(\.1), [3 * min, 10 * min], "WhatsApp ends at the launcher, news at the screen going off")
        XCTAssertEqual(a.map(\.2), [1, 0])
        XCTAssertEqual(set.users[1].sessions.map { $0.end.microseconds - eight }, [5 * min], "device b: locked at 08:05")
        let network = set.users[0].network.map { ($0.kind, $0.end.microseconds - eight) }
        XCTAssertEqual(network.map(\.0), [.wifi, .offline, .cellular], "Wi-Fi from the start (as after the first row), off, then LTE")
        XCTAssertEqual(network.prefix(2).map(\.1), [30 * min, 31 * min])
        XCTAssertEqual(set.missingStreams, [.power, .content], "no battery table: power is left to the spec")
    }

    func testABadRowNamesTheFileLineAndColumn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let battery = "time,battery_level,battery_status,battery_health,battery_adaptor\n1488315824.049,100,5,2,2\n"
        let cases: [(String, Int, Int, String)] = [
            (battery + "1488321326.498,101,5,2,2\n", 3, 2, "battery level in 0...100"),
            (battery + "1488321326.498,99,7,2,2\n", 3, 3, "battery status"),
            (battery + "1488321326.498,99,5,2,3\n", 3, 5, "battery adaptor"),
            (battery + "1488321326.498,99,5,2\n", 3, 0, "expected 5 fields"),
            (battery + "14883213e6,99,5,2,0\n", 3, 1, "time in s since 1970"),
            (battery + "12.5,99,5,2,0\n", 3, 1, "between 2000 and 2200"),
            ("time,level\n1,2\n", 1, 0, "header of an AWARE table"),
            ("timestamp,screen_status\n1709539200000,4\n", 2, 2, "screen status"),
        ]
        for (text, line, column, fragment) in cases {
            let url = dir.url.appendingPathComponent("table.csv")
            try text.write(to: url, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try AwareImporter.importTables([url], seed: 1, timeZone: TimeZone(identifier: "UTC")!)) { error in
                guard let e = error as? TraceFormatError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.file, "table.csv")
                XCTAssertEqual(e.line, line, e.description)
                XCTAssertEqual(e.column, column, e.description)
                XCTAssertTrue(e.message.contains(fragment), e.description)
            }
        }
    }

    /// A problem of the whole set (no sessions table, no device, too long a
    /// span) names what was given, not whichever file happened to be first.
    func testAProblemOfTheWholeSetNamesTheInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let header = "time,battery_level,battery_status,battery_health,battery_adaptor\n"
        let cases: [(String, String)] = [
            (header + "1488315824.049,100,5,2,2\n", "no applications_foreground or screen table"),
            ("timestamp,screen_status\n1488315824000,0\n", "no device has a session"),
            ("timestamp,screen_status,device_id\n946684800000,3,a\n946684801000,0,a\n4102444800000,3,a\n", "device a's rows span"),
        ]
        for (text, fragment) in cases {
            let url = dir.url.appendingPathComponent(fragment.hasPrefix("no app") ? "battery.csv" : "screen.csv")
            try text.write(to: url, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: url) }
            XCTAssertThrowsError(try AwareImporter.importTables([dir.url], seed: 1, timeZone: TimeZone(identifier: "UTC")!)) { error in
                guard let e = error as? TraceFormatError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.file, dir.url.path, e.description)
                XCTAssertTrue(e.message.contains(fragment), e.description)
            }
        }
    }

    /// The power comparison of `traces stats`: the niimpy month's measured
    /// figures, and the default world's beside them.
    func testPowerStatisticsOfTheRealMonth() throws {
        let set = try TraceSetReader.read(directory: Self.fixture.appendingPathComponent("month"))
        let real = PowerStatistics(set)
        XCTAssertTrue(real.measured)
        XCTAssertEqual(real.observedDays, 31, accuracy: 0.1, "the battery rows span 31 days")
        XCTAssertEqual(real.dailyMinimumPercent.min(), 15, "the month's lowest reading is 15 %")
        XCTAssertGreaterThan(real.overnightShare, 0.8)
        var defaults = PowerStatistics()
        let generator = PopulationGenerator(parameters: .default, seed: 1, days: 7)
        for u in 0..<10 { defaults.add(generator.user(u)) }
        XCTAssertFalse(defaults.measured)
        XCTAssertEqual(defaults.observedDays, 70, accuracy: 1e-9)
        let table = PowerStatistics.comparison(real, label: "real", defaults: defaults, defaultsLabel: "defaults")
        for row in ["time charging", "nights on the charger at 03:00", "overnight plug-in", "overnight charge length",
                    "top-ups", "daily minimum level"] {
            XCTAssertTrue(table.contains(row), row)
        }
    }
}
