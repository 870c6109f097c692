// `traces import`: the LSApp and generic fixtures (Datasets/import-examples)
// convert to valid trace sets with the documented repairs, and malformed
// logs are errors naming the line and column.
import Foundation
import SimCore
import TestSupport
import Traces
import XCTest

final class ImportTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Datasets/import-examples").standardized

    func testLSAppFixtureConvertsWithEveryRepairCounted() throws {
        let (set, report) = try TraceImporter.importLog(Self.examples.appendingPathComponent("lsapp-sample.tsv"),
                                                        format: .lsapp, seed: 3)
        XCTAssertEqual(set.users.count, 2)
        XCTAssertEqual(set.apps.map(\.name), ["chrome", "facebook", "gmail", "weather", "whatsapp-messenger"])
        XCTAssertEqual(report.events, 14)
        XCTAssertEqual(report.sessions, 5)
        XCTAssertEqual(report.closedAtNextOpen, 1)       // Gmail, cut by Facebook's open
        XCTAssertEqual(report.unpairedClosesDropped, 1)  // Gmail's late close
        XCTAssertEqual(report.unpairedOpensDropped, 1)   // YouTube never closed
        XCTAssertEqual(report.duplicateOpensIgnored, 1)  // Chrome opened twice
        XCTAssertEqual(report.lengthenedToOneSecond, 1)  // Weather open = close
        XCTAssertEqual(report.interactionsIgnored, 1)
        XCTAssertEqual(report.brokenIgnored, 1)
        // 2018-01-16 06:01:05 is a Tuesday: day 1 of a trace starting Monday the 15th.
        let first = set.users[0].sessions[0]
        XCTAssertEqual(first.start, SimTime(day: 1, plus: .seconds(6 * 3600 + 65 as Int64)))
        XCTAssertEqual(first.duration, .seconds(65 as Int64))
        XCTAssertEqual(set.apps[first.app].name, "whatsapp-messenger")
        // Content behaviour by name: WhatsApp behaves like the catalogue's messaging.
        XCTAssertEqual(set.apps[4].contentPattern, .bursty)
        // The synthesised streams are there and the set is valid on disk.
        XCTAssertFalse(set.users[0].network.isEmpty)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(set, to: dir.url)
        let read = try TraceSetReader.read(directory: dir.url)
        XCTAssertEqual(read.users.map(\.sessions), set.users.map(\.sessions))
    }

    func testGenericFixtureAndDeterminism() throws {
        let url = Self.examples.appendingPathComponent("events-sample.csv")
        let a = try TraceImporter.importLog(url, format: .events, seed: 9)
        let b = try TraceImporter.importLog(url, format: .events, seed: 9)
        XCTAssertEqual(a.set.users, b.set.users)
        XCTAssertEqual(a.set.users.map { $0.sessions.count }, [3, 2])
        // alice's news at 07:30 on Monday 2024-03-04 (a Monday: day 0).
        XCTAssertEqual(a.set.users[0].sessions[0].start, SimTime(day: 0, plus: .seconds(7.5 * 3600)))
        XCTAssertEqual(a.report.closedAtNextOpen, 1)   // bob's game, cut by messages
        XCTAssertEqual(a.report.unpairedClosesDropped, 1)
        // Another seed changes the synthesised streams, not the sessions.
        let c = try TraceImporter.importLog(url, format: .events, seed: 10)
        XCTAssertEqual(c.set.users.map(\.sessions), a.set.users.map(\.sessions))
        XCTAssertNotEqual(c.set.users.map(\.network), a.set.users.map(\.network))
        // CRLF line ends read the same.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let crlf = dir.url.appendingPathComponent("crlf.csv")
        try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
            .write(to: crlf, atomically: true, encoding: .utf8)
        XCTAssertEqual(try TraceImporter.importLog(crlf, format: .events, seed: 9).set.users, a.set.users)
    }

    func testMalformedLogsNameTheLineAndColumn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cases: [(AppEventLogFormat, String, Int, Int, String)] = [
            (.events, "user,time,app\n", 1, 0, "header"),
            (.events, "user,time,app,event\nu,2024-03-04T07:30:00,news\n", 2, 0, "4 fields"),
            (.events, "user,time,app,event\nu,2024-02-30T07:30:00,news,open\n", 2, 2, "local time"),
            (.events, "user,time,app,event\nu,2024-03-04T07:30:00,news,launch\n", 2, 4, "open or close"),
            (.events, "user,time,app,event\nu,2024-03-04T07:30:00,,open\n", 2, 3, "empty app"),
            (.lsapp, "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t1\t2018-01-16 06:01:05\tX\tOpen\n", 2, 5, "Opened, Closed"),
            (.events, "user,time,app,event\n\nu,2024-03-04T07:30:00,news,open\n", 2, 0, "blank line"),
        ]
        for (format, text, line, column, fragment) in cases {
            let url = dir.url.appendingPathComponent("log.txt")
            try text.write(to: url, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try TraceImporter.importLog(url, format: format, seed: 1), text) { error in
                guard let e = error as? TraceFormatError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.line, line, "\(e)")
                XCTAssertEqual(e.column, column, "\(e)")
                XCTAssert(e.message.contains(fragment), "\(e)")
            }
        }
    }
}
