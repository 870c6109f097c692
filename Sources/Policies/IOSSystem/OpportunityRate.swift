import Device
import SimCore

/// The fetch-result feedback of `ios-system`: a per-app rate multiplier
/// that rises with `.newData` and falls with `.noData`, failures, slow runs
/// and expirations, as the app's tasks are seen to finish.
///
/// Sources:
/// - Apple's Background Fetch documentation (`UIApplication.setMinimumBackgroundFetchInterval`, Docs/References.md): `.newData` "can
///   raise the wake frequency", `.noData` keeps or lowers it, `.failed`
///   lowers it "so as not to waste battery";
/// - Apple's App Programming Guide for iOS, as quoted on the Q&A page
///   "How often is background fetch executed in iOS?": "Apps that download
///   small amounts of content quickly, and accurately reflect when they had
///   content available to download, are more likely to receive execution
///   time in the future than apps that take a long time to download their
///   content or that claim content was available but then do not download
///   anything" (slow runs are penalised);
/// - an expired task is one whose app did not finish within its budget: the
///   issue's "judged wasteful and gets fewer background opportunities".
/// Every factor's size is an assumption: Apple publishes none.
///
/// What it can and cannot tell of a dishonest app (AppModel's
/// `reportsHonestly` false: `.newData` whatever happened): it cannot see
/// that a successful run "claimed content was available but then did not
/// download anything" — that needs the bytes of the run, which a
/// `TaskReport` does not carry. It can see a report that contradicts the
/// outcome: `.newData` from a run the system saw fail or expire. Such a
/// run is judged by its outcome (the system's, not the app's), and the app
/// is *distrusted* for `distrustFor`: meanwhile its `.newData` counts as
/// `.noData` (assumption: the guide says accurate reports earn time, not
/// how a lie is found or for how long it counts). So a dishonest app gains
/// until its first failure or expiration, and loses after.
///
/// Model: the rate starts at 1 and is multiplied, per finished refresh or
/// fetch, by `newDataGain` (outcome success, `.newData`), `noDataFactor`
/// (success, `.noData`), `failedFactor` (outcome failed) or `expiredFactor`
/// (outcome expired), and also by `slowFactor` when the run lasted longer
/// than `slowRun`; it is kept in [`minRate`, `maxRate`]. A `.newData`
/// while the app is distrusted counts as `.noData`.
///
/// Parameters (all assumptions; the multipliers are unitless):
/// `newDataGain` (multiplier, range 1…10, default 1.25), `noDataFactor`
/// (0…1, default 0.9), `failedFactor` (0…1, default 0.7), `expiredFactor`
/// (0…1, default 0.5), `slowFactor` (0…1, default 0.8), `slowRun`
/// (duration > 0, default 10s: a third of the 30 s refresh budget),
/// `minRate` (multiplier, 0.001…1, default 0.1), `maxRate` (multiplier,
/// 1…1000, default 4), `distrustFor` (duration > 0, default 7d).
public struct OpportunityRate: Sendable, Hashable {
    public struct Factors: Sendable, Hashable {
        public var newDataGain = 1.25
        public var noDataFactor = 0.9
        public var failedFactor = 0.7
        public var expiredFactor = 0.5
        public var slowFactor = 0.8
        public var slowRun: SimDuration = .seconds(10 as Int64)
        public var minRate = 0.1
        public var maxRate = 4.0
        public var distrustFor: SimDuration = .days(7)
        public init() {}
    }
    public var factors: Factors
    var rates: [Double] = []
    /// Penalties (failed, expired or slow runs) per app, for tests and studies.
    public private(set) var penalties: [Int] = []
    /// Reports seen to contradict their outcome, per app.
    public private(set) var lies: [Int] = []
    /// Until when each app's `.newData` counts as `.noData`.
    var distrustedUntil: [SimTime] = []

    public init(factors: Factors = Factors()) { self.factors = factors }

    mutating func ensure(apps: Int) {
        while rates.count < apps { rates.append(1); penalties.append(0); lies.append(0); distrustedUntil.append(.zero) }
    }

    /// The app's rate multiplier (1 before anything is seen).
    public func rate(app: Int) -> Double { app < rates.count ? rates[app] : 1 }

    /// A refresh or fetch of the app finished.
    public mutating func record(_ report: TaskReport) {
        guard report.request.kind.refreshesContent else { return }
        let a = Int(report.request.app)
        ensure(apps: a + 1)
        if report.outcome != .success && report.fetchResult == .newData {
            lies[a] += 1
            // At most a century, so that a huge `distrustFor` cannot overflow the time.
            distrustedUntil[a] = max(distrustedUntil[a], report.end + min(factors.distrustFor, .days(36_500)))
        }
        let believed = report.end >= distrustedUntil[a]
        var m: Double
        switch report.outcome {
        case .success:
            switch report.fetchResult {
            case .newData: m = believed ? factors.newDataGain : factors.noDataFactor
            case .failed: m = factors.failedFactor
            default: m = factors.noDataFactor
            }
        case .failed: m = factors.failedFactor
        case .expired: m = factors.expiredFactor
        }
        let slow = report.end - report.start > factors.slowRun
        if slow { m *= factors.slowFactor }
        if report.outcome != .success || slow { penalties[a] += 1 }
        rates[a] = min(factors.maxRate, max(factors.minRate, rates[a] * m))
    }
}
