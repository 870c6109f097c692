import XCTest
import Stats
import TestSupport
@testable import Experiments

final class ResultsTests: XCTestCase {
    let metrics = [MetricDescriptor(name: "fresh_ratio", unit: "1", description: "f"),
                   MetricDescriptor(name: "energy_j", unit: "J", description: "e")]

    /// Two configurations × 5 users; config 1 is config 0 plus a known shift.
    func makeResults() -> ResultSet {
        var r = ResultSet(configurations: ["base", "other, with comma"], metrics: metrics)
        let fresh = [0.5, 0.25, 0.75, 0.125, 1.0]
        let energy = [10.0, 12.5, 9.0, 11.0, 0.1]
        for u in 0..<5 { r.append(RunKey(configuration: 1, replication: 0, user: u), [fresh[u] + 0.1 * Double(u), energy[u] * 2]) }
        for u in 0..<5 { r.append(RunKey(configuration: 0, replication: 0, user: u), [fresh[u], energy[u]]) }
        r.append(RunKey(configuration: 0, replication: 1, user: 0), [.nan, 3])
        return r.sorted()
    }

    func testRunsCSVRoundTripsExactly() throws {
        let r = makeResults()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = ResultFiles.runsCSV(r)
        XCTAssertTrue(text.hasPrefix("configuration,replication,user,fresh_ratio,energy_j\nbase,0,0,0.5,10\n"))
        XCTAssertTrue(text.contains("\"other, with comma\",0,1,"))
        XCTAssertTrue(text.contains("base,1,0,NaN,3\n"))
        try OutputFile.write(text, to: dir.path("runs.csv"))
        let back = try ResultFiles.readRuns(path: dir.path("runs.csv"), knownMetrics: metrics)
        XCTAssertEqual(ResultFiles.runsCSV(back), text)
        XCTAssertEqual(back.metrics, metrics)
    }

    func testReadRunsNamesFileAndLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try OutputFile.write("configuration,replication,user,x\nA,0,0,1\nA,0,1,zz\n", to: dir.path("runs.csv"))
        XCTAssertThrowsError(try ResultFiles.readRuns(path: dir.path("runs.csv"), knownMetrics: [MetricDescriptor(name: "x", unit: "", description: "")])) { error in
            let e = error as! InputFileError
            XCTAssertEqual(e.line, 3)
            XCTAssertTrue(e.description.contains("runs.csv:3"))
            XCTAssertTrue(e.message.contains("not a number"))
        }
    }

    /// Summary rows recomputed independently from the raw values.
    func testSummaryMatchesDirectComputation() {
        let r = makeResults()
        let rows = Aggregation.summaries(r)
        XCTAssertEqual(rows.count, 4)
        let freshBase = rows.first { $0.configuration == "base" && $0.metric.name == "fresh_ratio" }!.summary
        XCTAssertEqual(freshBase.n, 5)
        XCTAssertEqual(freshBase.excluded, 1)
        XCTAssertEqual(freshBase.mean, (0.5 + 0.25 + 0.75 + 0.125 + 1.0) / 5, accuracy: 1e-15)
        XCTAssertEqual(freshBase.median, 0.5)
    }

    /// Paired differences: config 1 − config 0 energy is exactly config 0's energy.
    func testComparisonPairsByUserAndReplication() {
        let r = makeResults()
        let rows = Aggregation.comparisons(r, baseline: 0)
        XCTAssertEqual(rows.map(\.configuration), ["base", "base", "other, with comma", "other, with comma"])
        let energy = rows.first { $0.configuration == "other, with comma" && $0.metric.name == "energy_j" }!.comparison
        XCTAssertEqual(energy.n, 5)  // replication 1 of the baseline has no partner
        XCTAssertEqual(energy.meanDifference, (10 + 12.5 + 9 + 11 + 0.1) / 5, accuracy: 1e-12)
        let selfRow = rows.first { $0.configuration == "base" && $0.metric.name == "energy_j" }!.comparison
        XCTAssertEqual(selfRow.meanDifference, 0)
        XCTAssertEqual(selfRow.pValue, 1)
        let csv = ResultFiles.comparisonCSV(rows)
        XCTAssertTrue(csv.hasPrefix(ResultFiles.comparisonColumns.joined(separator: ",") + "\n"))
        XCTAssertEqual(csv.split(separator: "\n").count, 5)
    }

    func testParetoFrontier() {
        let pts = [("a", 5.0, 0.5), ("b", 1.0, 0.2), ("c", 3.0, 0.1), ("d", 10.0, 0.9), ("e", 6, 0.5), ("f", .nan, 1)]
            .map { ParetoFrontier.Point(label: $0.0, cost: $0.1, benefit: $0.2) }
        XCTAssertEqual(ParetoFrontier.frontier(pts).map { pts[$0].label }, ["b", "a", "d"])
        XCTAssertEqual(ParetoFrontier.frontier([]), [])
    }

    func testCSVQuotingAndNumbers() {
        XCTAssertEqual(CSV.line(["a", "b,c", "d\"e"]), "a,\"b,c\",\"d\"\"e\"\n")
        XCTAssertEqual(CSV.split("a,\"b,c\",\"d\"\"e\""), ["a", "b,c", "d\"e"])
        XCTAssertNil(CSV.split("\"open"))
        for d in [0.1, 1e-7, 123456789.125, -0.5, 3, .infinity, -.infinity] {
            XCTAssertEqual(CSV.parseNumber(Substring(CSV.number(d))), d)
        }
        XCTAssertTrue(CSV.parseNumber("NaN")!.isNaN)
    }

    func testSVGIsDeterministicAndEscaped() {
        let plot = SVGPlot(title: "F <vs> E", xLabel: "J", yLabel: "ratio")
        let pts = [SVGPlot.ScatterPoint(label: "a&b", x: 1, xLow: 0.5, xHigh: 1.5, y: 0.2, yLow: 0.1, yHigh: 0.3, highlighted: true),
                   SVGPlot.ScatterPoint(label: "c", x: 2, xLow: 1.5, xHigh: 2.5, y: 0.6, yLow: 0.5, yHigh: 0.7, highlighted: true)]
        let s1 = plot.scatter(pts), s2 = plot.scatter(pts)
        XCTAssertEqual(s1, s2)
        XCTAssertTrue(s1.contains("a&amp;b"))
        XCTAssertTrue(s1.contains("F &lt;vs&gt; E"))
        XCTAssertTrue(s1.contains("<polyline"))
        XCTAssertTrue(s1.hasSuffix("</svg>\n"))
    }
}
