// A trace-set world is read user by user while it runs (`TraceFeed`): at
// most one user's trace per thread is held, the results are those of any
// thread count and sharding, a bad row anywhere in the set fails `run` and
// `validate` alike with the same file:line error and writes nothing.
import Foundation
import TestSupport
import Traces
import XCTest
@testable import Experiments

final class TraceStreamRunTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        try TraceSetWriter.write(PopulationGenerator(parameters: .default, seed: 9, days: 2).traceSet(users: 7),
                                 to: dir.url.appendingPathComponent("set"))
        try """
        { "name": "streamed", "seed": 4, "replications": 2, "traces": "set",
          "policies": [{ "name": "never" }, { "name": "fixed-interval", "params": { "interval": "1h" } }] }
        """.write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
    }

    override func tearDown() { dir.remove() }

    func runner() throws -> Runner {
        try ExperimentCommands.prepare(try ExperimentSpec.load(path: dir.path("spec.json"), registry: .standard), threads: 2)
    }

    func testAtMostOneUserPerThreadIsHeldAndTheResultsDoNotDependOnThreadsOrShards() throws {
        let r = try runner()
        let one = try XCTUnwrap(try r.run(threads: 1))
        XCTAssertEqual(one.tracesHeldAtOnce, 1)
        for threads in [2, 3] {
            let out = try XCTUnwrap(try r.run(threads: threads))
            XCTAssertTrue((1...threads).contains(out.tracesHeldAtOnce), "\(out.tracesHeldAtOnce) traces held on \(threads) threads")
            XCTAssertEqual(out.results.values.map(\.bitPattern), one.results.values.map(\.bitPattern), "\(threads) threads")
        }
        // 14 items (2 replications × 7 users) in 3 shards: the middle one
        // starts inside replication 0 and ends inside replication 1.
        var keys: [RunKey] = [], values: [Double] = []
        for i in 0..<3 {
            let part = try XCTUnwrap(try r.run(shard: Shard(index: i, count: 3), threads: 2))
            keys += part.results.keys
            values += part.results.values
        }
        let width = Runner.metrics.count
        let whole = Dictionary(uniqueKeysWithValues: one.results.keys.enumerated().map {
            ($1, one.results.values[$0 * width..<($0 + 1) * width].map(\.bitPattern))
        })
        XCTAssertEqual(keys.count, whole.count)
        for (i, key) in keys.enumerated() {
            XCTAssertEqual(values[i * width..<(i + 1) * width].map(\.bitPattern), whole[key], "\(key)")
        }
    }

    func testABadRowOfTheLastUserFailsRunAndValidateWithTheSameErrorAndWritesNothing() throws {
        let content = dir.url.appendingPathComponent("set/" + TraceSetFile.contentUpdates)
        var lines = try String(contentsOf: content, encoding: .utf8).split(separator: "\n").map(String.init)
        let last = lines.count
        lines[last - 1] = lines[last - 1].split(separator: ",").prefix(2).joined(separator: ",")
        try (lines.joined(separator: "\n") + "\n").write(to: content, atomically: true, encoding: .utf8)
        let expected = "\(dir.path("set"))/content_updates.csv:\(last):0: expected 3 comma-separated fields"
        var messages: [String] = []
        do { _ = try ExperimentCommands.validate(specPath: dir.path("spec.json"), threads: 1, registry: .standard) } catch {
            messages.append("\(error)")
        }
        // Shard 0/3 (items 0..<4) ends before the bad user: the rest of the
        // pass is read and checked all the same.
        for (threads, shard) in [(1, Shard.whole), (2, Shard.whole), (2, Shard(index: 0, count: 2)), (1, Shard(index: 0, count: 3))] {
            do {
                _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("out"), threads: threads,
                                                     shard: shard == .whole ? nil : shard, events: true), tool: .standard)
            } catch {
                messages.append("\(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")), "\(threads) threads, shard \(shard)")
        }
        XCTAssertEqual(messages.count, 5, "\(messages)")
        XCTAssertEqual(Set(messages).count, 1, "\(messages)")
        XCTAssertTrue(messages[0].hasPrefix(expected), messages[0])
        // Nothing is left beside the output either (no staging directory).
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted(), ["set", "spec.json"])
    }
}
