// Streams a trace set may omit and their synthesis (Datasets/README.md,
// "Streams a set may omit"): synthesising a generated set's streams gives
// the generated world back; a sessions-only import plus synthesis is the
// full import; the reader's rules on which files may be missing.
import Foundation
import SimCore
import TestSupport
@testable import Traces
import XCTest

final class StreamSynthesisTests: XCTestCase {
    static let streamFiles = [TraceSetFile.charging, TraceSetFile.lowPowerMode, TraceSetFile.network,
                              TraceSetFile.contentUpdates]

    func remove(_ files: [String], in dir: TemporaryDirectory) throws {
        for f in files { try FileManager.default.removeItem(at: dir.url.appendingPathComponent(f)) }
    }

    func testSynthesisingEveryStreamOfAGeneratedSetGivesTheGeneratedWorld() throws {
        let generator = PopulationGenerator(parameters: .default, seed: 77, days: 3)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(generator.traceSet(users: 6), to: dir.url)
        try remove(Self.streamFiles, in: dir)
        let set = try TraceSetReader.read(directory: dir.url)
        XCTAssertEqual(set.missingStreams, Set(TraceStream.allCases))
        XCTAssertTrue(set.hasUsersFile)
        XCTAssertTrue(set.users.allSatisfy { $0.network.isEmpty && $0.charging.isEmpty })
        let synthesiser = StreamSynthesiser(streams: Set(TraceStream.allCases), parameters: .default, set: set)
        for (i, user) in set.users.enumerated() {
            XCTAssertEqual(synthesiser.complete(user, seed: 77), generator.user(i), "user \(i)")
        }
        // Another seed draws other streams (the comparison above can fail).
        XCTAssertNotEqual(synthesiser.complete(set.users[0], seed: 78).network, generator.user(0).network)
        // One stream alone replaces only that stream.
        let networkOnly = StreamSynthesiser(streams: [.network], parameters: .default, set: set)
        let u = networkOnly.complete(set.users[1], seed: 77)
        XCTAssertEqual(u.network, generator.user(1).network)
        XCTAssertTrue(u.charging.isEmpty && u.contentUpdates.allSatisfy(\.isEmpty))
        XCTAssertEqual(u.profile, set.users[1].profile)
    }

    func testSessionsOnlyImportPlusSynthesisIsTheFullImport() throws {
        let log = ImportTests.examples.appendingPathComponent("lsapp-sample.tsv")
        let full = try TraceImporter.importLog(log, format: .lsapp, seed: 5).set
        let bare = try TraceImporter.importLog(log, format: .lsapp, seed: 5, sessionsOnly: true).set
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(bare, to: dir.url)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted(),
                       [TraceSetFile.apps, TraceSetFile.sessions, TraceSetFile.traceSet])
        let set = try TraceSetReader.read(directory: dir.url)
        XCTAssertFalse(set.hasUsersFile)
        XCTAssertEqual(set.missingStreams, Set(TraceStream.allCases))
        XCTAssertEqual(set.users.map(\.sessions), full.users.map(\.sessions))
        // The content pattern is not in apps.csv: the synthesiser guesses it
        // from the name as the importer does (WhatsApp is bursty).
        let synthesiser = StreamSynthesiser(streams: Set(TraceStream.allCases), parameters: .default, set: set)
        XCTAssertEqual(set.users.map { synthesiser.complete($0, seed: 5) }, full.users)
        XCTAssertTrue(full.users.contains { !$0.contentUpdates.allSatisfy(\.isEmpty) })
    }

    func testOmittedFilesFollowTheStreamRules() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(PopulationGenerator(parameters: .default, seed: 1, days: 1).traceSet(users: 3), to: dir.url)
        func error() -> TraceFormatError? {
            do { _ = try TraceSetReader.read(directory: dir.url); return nil } catch { return error as? TraceFormatError }
        }
        // Charging and Low Power Mode without users.csv (the power constants) are an error.
        try remove([TraceSetFile.users], in: dir)
        XCTAssertEqual(error()?.file, TraceSetFile.users)
        // Half of the power stream is an error naming the missing half.
        try remove([TraceSetFile.lowPowerMode], in: dir)
        XCTAssertEqual(error()?.file, TraceSetFile.lowPowerMode)
        try remove([TraceSetFile.charging], in: dir)
        XCTAssertNil(error())
        XCTAssertEqual(try TraceSetReader.read(directory: dir.url).missingStreams, [.power])
        // The sessions are required.
        try FileManager.default.moveItem(atPath: dir.path(TraceSetFile.sessions), toPath: dir.path("keep"))
        XCTAssertEqual(error()?.file, TraceSetFile.sessions)
        // Without users.csv, sessions.csv must list users in increasing order.
        let text = try String(contentsOfFile: dir.path("keep"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let last = lines.removeLast()
        lines.insert(last, at: 1)
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir.path(TraceSetFile.sessions), atomically: true, encoding: .utf8)
        let e = error()
        XCTAssertEqual(e?.file, TraceSetFile.sessions)
        XCTAssertEqual(e?.column, 1)
        XCTAssertTrue(e?.message.contains("increasing user order") ?? false, "\(String(describing: e))")
    }
}

/// The reader reads each file in chunks (`CSVRows.chunkBytes`): lines that
/// straddle chunks and a line longer than a chunk read as in one piece.
final class ChunkedReadingTests: XCTestCase {
    func testASetLargerThanAChunkReadsBackExactly() throws {
        let set = PopulationGenerator(parameters: .default, seed: 5, days: 7).traceSet(users: 12)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(set, to: dir.url)
        let size = try FileManager.default.attributesOfItem(atPath: dir.path(TraceSetFile.contentUpdates))[.size] as! Int
        XCTAssertGreaterThan(size, 2 * CSVRows.chunkBytes, "the file spans several chunks")
        XCTAssertEqual(try TraceSetReader.read(directory: dir.url).users, set.users)
    }

    func testALineLongerThanAChunkIsReportedAtItsLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try TraceSetWriter.write(PopulationGenerator(parameters: .default, seed: 5, days: 1).traceSet(users: 2), to: dir.url)
        let path = dir.path(TraceSetFile.sessions)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = "0,1," + String(repeating: "9", count: 3 * CSVRows.chunkBytes) + ",0"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TraceSetReader.read(directory: dir.url)) { error in
            let e = error as? TraceFormatError
            XCTAssertEqual(e?.file, TraceSetFile.sessions)
            XCTAssertEqual(e?.line, 3)
            XCTAssertEqual(e?.column, 3)
        }
    }
}
