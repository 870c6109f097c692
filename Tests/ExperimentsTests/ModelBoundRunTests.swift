// The runner gives the generator's model to the model-aware bound only: the
// bound refreshes on a generated world, does nothing on a trace-set world
// (no model), and the other configurations are unchanged by its presence.
import Foundation
import XCTest
@testable import Experiments

final class ModelBoundRunTests: XCTestCase {
    func spec(_ policies: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse("""
        { "name": "m", "seed": 5, "population": { "users": 6, "days": 3 },
          "policies": [\(policies)], "baseline": "never" }
        """, registry: .standard)
    }

    /// Per configuration, Σ fresh launches and Σ background joules over users.
    func totals(_ s: ExperimentSpec) throws -> [(fresh: Double, joules: Double)] {
        let out = try XCTUnwrap(try Runner(spec: s).run(threads: 1))
        let r = out.results
        let f = try XCTUnwrap(r.metricIndex("fresh_launches")), e = try XCTUnwrap(r.metricIndex("energy_total_j"))
        return r.rowsByConfiguration().map { rows in
            (rows.reduce(0) { $0 + r.value(row: $1, metric: f) }, rows.reduce(0) { $0 + r.value(row: $1, metric: e) })
        }
    }

    func testTheBoundGetsTheModelAndOthersAreUnaffected() throws {
        let with = try totals(spec(#"{ "name": "never" }, { "name": "usage-predictor" }, { "name": "model-bound" }"#))
        let without = try totals(spec(#"{ "name": "never" }, { "name": "usage-predictor" }"#))
        // The bound spends energy and adds fresh launches over never: it saw a model.
        XCTAssertGreaterThan(with[2].joules, 0)
        XCTAssertGreaterThan(with[2].fresh, with[0].fresh)
        // The other configurations are byte-for-byte the same runs.
        XCTAssertEqual(with[0].fresh, without[0].fresh)
        XCTAssertEqual(with[1].fresh, without[1].fresh)
        XCTAssertEqual(with[1].joules, without[1].joules)
    }

    /// The wrappers hand their base its model: `coalescing(model-bound)` and
    /// `exponential-backoff(model-bound)` differ from `never` and follow
    /// `model-bound` (they once ran exactly as `never`: the wrappers did
    /// not forward the bound's need for the model).
    func testWrappedBoundGetsTheModel() throws {
        let t = try totals(spec(#"""
            { "name": "never" }, { "name": "model-bound" },
            { "name": "coalescing", "base": { "name": "model-bound" } },
            { "name": "exponential-backoff", "base": { "name": "model-bound" } }
            """#))
        let never = t[0], bound = t[1]
        XCTAssertGreaterThan(bound.joules, 0)
        for (name, w) in [("coalescing", t[2]), ("exponential-backoff", t[3])] {
            // Not never: it spends energy and adds fresh launches over never.
            XCTAssertGreaterThan(w.joules, 0, name)
            XCTAssertGreaterThan(w.fresh, never.fresh, name)
            // Follows the bound: coalescing batches and backoff holds back
            // some of its refreshes, so within a third of its energy, and its
            // gain in fresh launches over never within a third too.
            XCTAssertEqual(w.joules, bound.joules, accuracy: bound.joules / 3, name)
            XCTAssertEqual(w.fresh - never.fresh, bound.fresh - never.fresh, accuracy: (bound.fresh - never.fresh) / 3, name)
        }
    }
}
