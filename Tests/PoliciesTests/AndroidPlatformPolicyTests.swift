@testable import Device
@testable import Policies
import Foundation
import SimCore
import Traces
import XCTest

/// Every registered policy, alone and in each wrapper, runs on an Android
/// device through the same seam, and Android's rules hold in what it did
/// (Docs/AndroidPlatform.md): periodic work at most once per interval,
/// processing only after the device-idle threshold, no run past the
/// execution limit.
final class AndroidPlatformPolicyTests: XCTestCase {
    /// The conformance worlds on Android, the apps asking for a refresh
    /// every 5 min (Android raises it to 15), with a model for the bound
    /// that reads one.
    func worlds() -> [(String, DeviceTrace, DeviceConfiguration)] {
        PolicyConformance.scenarios().map { name, trace, config in
            var trace = trace
            let apps = trace.appNames.count
            trace.model = UsageModelKnowledge(launchesPerHour: Array(repeating: Array(repeating: 0.7, count: 48), count: apps),
                                              updatesPerHour: Array(repeating: Array(repeating: 0.5, count: 24), count: apps))
            var config = config
            config.platform = .android
            config.defaultApp.refreshEarliestBeginDelay = .minutes(5)
            // A chain the app breaks is new periodic work when it next
            // enqueues (its first period may run at once): A1 is per work.
            config.defaultApp.forgetProbability = 0
            for k in config.apps.keys { config.apps[k]!.forgetProbability = 0 }
            config.defaultApp.processingInterval = .hours(12)
            config.defaultApp.processingRequiresExternalPower = false
            return (name, trace, config)
        }
    }

    func policies() throws -> [(String, any SchedulingPolicy)] {
        var out: [(String, any SchedulingPolicy)] = []
        for d in PolicyRegistry.standard.descriptors where !d.isWrapper && d.name != "external" {
            let base = try PolicyRegistry.standard.makeOwningResources(
                JSONDecoder().decode(PolicyConfiguration.self, from: Data(#"{"name": "\#(d.name)"}"#.utf8))).policy
            func wrapped<B: SchedulingPolicy>(_ b: B) -> [(String, any SchedulingPolicy)] {
                [("coalescing(\(d.name))", CoalescingPolicy(base: b, window: .minutes(10))),
                 ("exponential-backoff(\(d.name))", ExponentialBackoffPolicy(base: b))]
            }
            out.append((d.name, base))
            out += wrapped(base)
        }
        return out
    }

    func testEveryPolicyAndWrapperRunsUnderAndroidsRules() throws {
        let rules = AndroidWorkRules()
        var policiesWithRuns = Set<String>()
        let all = try policies()
        XCTAssertTrue(all.contains { $0.0 == "android-system" })
        for (name, policy) in all {
            for (world, trace, config) in worlds() {
                let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: policy, randomKey: 0xA11)
                if m.tasksRun > 0 { policiesWithRuns.insert(name) }
                var lastRefresh: [Int32: DeviceEvent] = [:]
                for e in log.events where e.kind == .task {
                    let start = e.start!, end = e.end!
                    // A4: no run past the execution limit (plus a SwiftUI handler's grace).
                    XCTAssertLessThanOrEqual(end - start, rules.executionLimit + config.cancellationGrace, "\(name) in \(world)")
                    if e.taskKind == .appRefresh {
                        // A1: once per interval, unless the last run failed or expired (A3: a retry).
                        if let last = lastRefresh[e.app], last.outcome == .success {
                            XCTAssertGreaterThanOrEqual(start - last.start!, rules.minPeriodicInterval,
                                                        "\(name) in \(world): app \(e.app) at \(start)")
                        }
                        lastRefresh[e.app] = e
                    }
                    if e.taskKind == .processing {
                        // A7: the screen off for the idle threshold before the start.
                        let lastEnd = trace.sessions.filter { $0.start <= start }.map(\.end).max() ?? .zero
                        XCTAssertGreaterThanOrEqual(start - lastEnd, rules.idleThreshold, "\(name) in \(world)")
                    }
                }
            }
        }
        // Every base policy but `never` and `oracle` runs some work on
        // Android. The oracle runs each refresh a few minutes before a
        // launch, when a screen-off unplugged device is in Doze (A9), and
        // does not ask again at the next maintenance window.
        let silent = Set(all.map(\.0).filter { !$0.contains("(") }).subtracting(policiesWithRuns)
        XCTAssertEqual(silent, ["never", "oracle"])
    }
}
