import Foundation
import SimCore
import Traces

/// Server outages of each app's backend: an alternating renewal process per
/// app, up-time then outage then up-time … from the start of the run.
/// During an outage every networked background run of that app fails
/// (Docs/Semantics.md, "Backend outages"). Part of ``DeviceConfiguration``
/// (JSON key `backendOutages`); off unless `perDay` is above 0.
///
/// Why a renewal process with log-normal durations: outages are rare
/// events of very unequal length (of 525 publicly recorded cloud outages
/// in 2016, "17% of outages lasted for less than 1 hour; 51% lasted between
/// 1 and 5 hours, and the remaining 32% lasted anywhere between 5 and 72
/// hours", blackswantec.com/learn), which a log-normal reproduces in shape;
/// exponential up-times (a Poisson process of outage starts) are the usual
/// assumption of availability models. The parameters are assumptions, not
/// fits (Docs/Semantics.md, "Backend outages", says what they give).
public struct BackendOutageModel: DeclaredParameters, Hashable {
    /// Outage starts per app and day of up-time (the rate of the
    /// exponential up-time). Per day, in [0, 48]; default 0 (off).
    /// Assumption; the default suite uses 0.1 (one outage per app about
    /// every 10 days), see Docs/Semantics.md.
    public var perDay: Double = 0
    /// Median outage duration (log-normal). Duration in [1 s, 1 day];
    /// default 1 h (assumption: half of the outages shorter than an hour,
    /// shorter than the publicly recorded ones, which are the large ones).
    public var medianDuration: SimDuration = .hours(1)
    /// σ of the log of the outage duration. In [0, 3]; default 1 (the
    /// middle 68 % of outages last between median/e and median·e, about
    /// 22 min to 2.7 h at the default median; 5 % last over 5 h). Assumption.
    public var durationSigma: Double = 1

    public init() {}

    /// The JSON keys under `device.backendOutages` (what each value gives:
    /// the comments above and Docs/Semantics.md, "Backend outages"). The
    /// rate is capped at 48 a day (one every half hour of up-time): beyond
    /// that the backend is rarely up and the feature stops being a burst model.
    public static let parameters: [Parameter<BackendOutageModel>] = [
        .real("perDay", \.perDay, ValueRange(0, 48, unit: "/day"), source: "assumption (0: off)"),
        .duration("medianDuration", \.medianDuration, .seconds(1, 86_400), source: "assumption"),
        .real("durationSigma", \.durationSigma, ValueRange(0, 3), source: "assumption"),
    ]

    /// Whether any outage can happen.
    public var isOn: Bool { perDay > 0 }

}

/// One device's outage intervals, per app, drawn at the simulator's start
/// from the device's keyed randomness: the k-th up-time of app a from
/// `RandomPurpose.outageUptime` (a, k), the k-th duration from
/// `RandomPurpose.outageDuration` (a, k). So an outage is the same event
/// under every policy (common random numbers), and no existing stream is
/// consumed.
struct BackendOutages {
    /// Per app, its outages.
    let perApp: [TimeIntervals]
    /// Whether any app has an outage: the one test a task start pays when
    /// outages are off (no per-app list is touched).
    let any: Bool

    init(model: BackendOutageModel, apps: Int, horizon: SimTime, random: DeviceRandom) {
        guard model.isOn else {
            perApp = Array(repeating: .none, count: apps)
            any = false
            return
        }
        perApp = (0..<apps).map { a in
            TimeIntervals.alternatingRenewal(
                perDay: model.perDay, medianDuration: model.medianDuration, durationSigma: model.durationSigma,
                horizon: horizon,
                gapUniform: { random.uniform(RandomPurpose.outageUptime.rawValue, UInt64(a), $0) },
                durationUniform: { random.uniform(RandomPurpose.outageDuration.rawValue, UInt64(a), $0) })
        }
        any = perApp.contains { !$0.starts.isEmpty }
    }

    /// Whether app `app`'s backend is down at `time`.
    @inline(__always)
    func isDown(app: Int, at time: SimTime) -> Bool {
        guard any, app < perApp.count else { return false }
        return perApp[app].contains(time)
    }

    /// The total outage time of app `app` before `horizon` (for tests and docs).
    func downtime(app: Int, before horizon: SimTime) -> SimDuration { perApp[app].total(before: horizon) }
}
