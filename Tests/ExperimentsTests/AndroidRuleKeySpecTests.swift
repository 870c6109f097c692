import Device
import Foundation
import TestSupport
import XCTest
@testable import Experiments

/// `device.android`'s rule-set keys (`standby`, `jobQuota`, `dozeTimings`,
/// `fcm`) through a spec: a bad value refused at its JSON path with its
/// range, `quotaTable`'s table under the keys given, and a key that
/// reaches the run and the manifest.
final class AndroidRuleKeySpecTests: XCTestCase {
    func spec(_ android: String, users: Int = 1, days: Int = 1) -> String {
        #"{"name": "k", "seed": 1, "population": {"users": \#(users), "days": \#(days)}, "policies": [{"name": "greedy"}], "device": {"platform": "android", "android": \#(android)}}"#
    }

    /// One bad value of each rule set: exit 65 from `validate` and `run`
    /// alike, the message naming the value's JSON path and its range.
    func testBadValuesAreRefusedWithPathAndRange() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cases: [(android: String, path: String, range: String)] = [
            (#"{"standby": {"workingSetAfter": "31d"}}"#, "$.device.android.standby.workingSetAfter", "[0, 2592000] s"),
            (#"{"jobQuota": {"rareMaxJobs": -1}}"#, "$.device.android.jobQuota.rareMaxJobs", "[0, 100000]"),
            (#"{"dozeTimings": {"idleTimeout": "0s"}}"#, "$.device.android.dozeTimings.idleTimeout", "[1, 86400] s"),
            (#"{"fcm": {"rarePerDay": 10001}}"#, "$.device.android.fcm.rarePerDay", "[0, 10000]"),
        ]
        for c in cases {
            let file = dir.path("s.json")
            try spec(c.android).write(toFile: file, atomically: true, encoding: .utf8)
            let validate = try CLI.run(["validate", file])
            let run = try CLI.run(["run", file, "--out", dir.path("out"), "--quiet"])
            XCTAssertEqual(validate.status, 65, validate.stderr)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(validate.stderr.contains(c.path + ": "), validate.stderr)
            XCTAssertTrue(validate.stderr.contains(c.range), validate.stderr)
            XCTAssertEqual(validate.stderr, run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")))
        }
        // An unknown key of a rule set is named with the known ones.
        XCTAssertThrowsError(try ExperimentSpec.parse(spec(#"{"dozeTimings": {"idleTimeOut": "30m"}}"#), registry: .standard)) { e in
            let error = e as! SpecError
            XCTAssertEqual(error.path, "$.device.android.dozeTimings.idleTimeOut")
            XCTAssertTrue(error.message.contains("idleTimeout"), error.message)
        }
    }

    /// `quotaTable` gives `jobQuota`'s defaults and the keys given override
    /// them, whatever their order in the file; the rule between a bucket's
    /// allowed time and its window is checked on the table so made (20 min
    /// fits Android 13's 1-h active window, not Android 12's 10-min one).
    func testQuotaTableGivesTheDefaultsTheKeysOverride() throws {
        let android12 = try ExperimentSpec.parse(spec(#"{"jobQuota": {"rareAllowedTime": "5m"}, "quotaTable": "android-12"}"#),
                                                 registry: .standard).device.android
        XCTAssertEqual(android12.jobQuota.rare.allowedTime, .minutes(5))
        XCTAssertEqual(android12.jobQuota.active.window, .minutes(10), "android-12's")
        XCTAssertEqual(android12.jobQuota.frequent.window, .hours(8), "android-12's")
        XCTAssertTrue(android12.fcm.bucketCapsApply, "android-12's")
        let uncapped = try ExperimentSpec.parse(spec(#"{"quotaTable": "android-12", "fcm": {"bucketCapsApply": false}}"#),
                                                registry: .standard).device.android
        XCTAssertFalse(uncapped.fcm.bucketCapsApply)
        XCTAssertEqual(uncapped.jobQuota, JobQuotaTable.upToAndroid12)
        // A variant's table under `device`'s keys: the variant is merged over `device` first.
        let variant = try ExperimentSpec.parse(#"""
            {"name": "v", "seed": 1, "population": {"users": 1, "days": 1}, "policies": [{"name": "greedy"}],
             "device": {"platform": "android", "android": {"jobQuota": {"rareAllowedTime": "5m"}}},
             "devices": [{"label": "a12", "device": {"android": {"quotaTable": "android-12"}}}]}
            """#, registry: .standard).deviceVariants[0].device.android.jobQuota
        XCTAssertEqual(variant.rare.allowedTime, .minutes(5))
        XCTAssertEqual(variant.active.window, .minutes(10))
        XCTAssertNoThrow(try ExperimentSpec.parse(spec(#"{"jobQuota": {"activeAllowedTime": "20m"}}"#), registry: .standard))
        XCTAssertThrowsError(try ExperimentSpec.parse(spec(#"{"quotaTable": "android-12", "jobQuota": {"activeAllowedTime": "20m"}}"#),
                                                      registry: .standard)) { e in
            let error = e as! SpecError
            XCTAssertEqual(error.path, "$.device.android.jobQuota.activeAllowedTime")
            XCTAssertTrue(error.message.contains("longer than its window 10m"), error.message)
        }
    }

    /// A rule-set key given in a spec changes the run (a first deep idle
    /// period of 30 min moves every maintenance window) and is in the
    /// manifest's spec.
    func testAKeyReachesTheRunAndTheManifest() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        func runs(_ android: String, _ out: String) throws -> String {
            let file = dir.path(out + ".json")
            try spec(android, users: 2, days: 2).write(toFile: file, atomically: true, encoding: .utf8)
            guard case .completed = try ExperimentCommands.run(.init(specPath: file, out: dir.path(out), threads: 1),
                                                               tool: .standard) else { XCTFail(); return "" }
            return try String(contentsOfFile: dir.path(out) + "/runs.csv", encoding: .utf8)
        }
        let byDefault = try runs("{}", "a")
        XCTAssertEqual(try runs(#"{"dozeTimings": {}, "jobQuota": {}}"#, "b"), byDefault, "an empty rule set is the default")
        XCTAssertNotEqual(try runs(#"{"dozeTimings": {"idleTimeout": "30m"}}"#, "c"), byDefault)
        let manifest = try String(contentsOfFile: dir.path("c") + "/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"idleTimeout\""), manifest)
    }
}
