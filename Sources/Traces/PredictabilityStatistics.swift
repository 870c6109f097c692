// How predictable a trace set's usage is, user by user, beside published
// figures (`bgbench traces stats`). Each check has the range it is held to and
// where the range comes from; "assumption" where no figure was found
// (Datasets/References.md). Accumulates user by user, like TraceStatistics.
import Foundation
import SimCore

public struct PredictabilityStatistics: Sendable {
    /// One row of the table: a per-user statistic, its median across users,
    /// and the range the median must fall in.
    public struct Check: Sendable {
        public var name: String
        public var median: Double
        public var range: ClosedRange<Double>?
        public var source: String
        public var passes: Bool { range.map { $0.contains(median) } ?? true }
    }

    /// Candidates of the most-frequently-used baseline (Shin et al. 2012
    /// report MFU at 9 candidate apps).
    public static let mfuCandidates = 9
    /// The ±window of the "same time as the day before" statistic.
    public static let routineWindow = SimDuration.minutes(15)
    /// (user, app) pairs with fewer launches are left out of per-app statistics.
    public static let minimumLaunches = 10

    public private(set) var users = 0
    var entropy: [Double] = []
    var gapCV: [Double] = []
    var repeatShare: [Double] = []
    var repeatLift: [Double] = []
    var sameTimeShare: [Double] = []
    var mfuRecall: [Double] = []
    var mruRecall: [Double] = []
    var appsUsed: [Double] = []
    var refreshApps: [Double] = []

    public init() {}

    public init(_ set: TraceSet) {
        self.init()
        for u in set.users { add(u, appCount: set.apps.count) }
    }

    public mutating func add(_ trace: UserTrace, appCount: Int) {
        users += 1
        let sessions = trace.sessions
        refreshApps.append(Double(trace.profile.backgroundAppRefreshEnabled.filter { $0 }.count))
        guard sessions.count >= 2 else { return }
        var perApp = [[SimTime]](repeating: [], count: appCount)
        for s in sessions where s.app < appCount { perApp[s.app].append(s.start) }
        appsUsed.append(Double(perApp.filter { !$0.isEmpty }.count))

        // Time-of-day entropy (24 hourly bins, normalised to [0, 1]) and CV
        // of same-app gaps, per app, weighted by launches.
        var hSum = 0.0, hWeight = 0.0
        var cvs: [Double] = []
        for starts in perApp where starts.count >= Self.minimumLaunches {
            var bins = [Double](repeating: 0, count: 24)
            for t in starts { bins[Int(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour) % 24] += 1 }
            let n = Double(starts.count)
            let h = bins.reduce(0) { $1 > 0 ? $0 - ($1 / n) * log2($1 / n) : $0 }
            hSum += n * h / log2(24); hWeight += n
            let gaps = zip(starts, starts.dropFirst()).map { Double(($1 - $0).microseconds) }
            let mean = gaps.reduce(0, +) / Double(gaps.count)
            let variance = gaps.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(gaps.count - 1, 1))
            if mean > 0 { cvs.append(variance.squareRoot() / mean) }
        }
        if hWeight > 0 { entropy.append(hSum / hWeight) }
        if !cvs.isEmpty { gapCV.append(Self.median(cvs)) }

        // P(next = previous) and its lift over the chance Σ share².
        let same = zip(sessions, sessions.dropFirst()).filter { $0.app == $1.app }.count
        let share = Double(same) / Double(sessions.count - 1)
        let chance = perApp.reduce(0.0) { $0 + pow(Double($1.count) / Double(sessions.count), 2) }
        repeatShare.append(share)
        if chance > 0 { repeatLift.append(share / chance) }

        // Per app (with enough launches), the share of its launches from day
        // 1 on with a launch of the same app on the previous day within
        // ±15 min of the same time of day; the user's median over apps (a
        // launch-weighted share would be that of the few most used apps,
        // which match by chance).
        var sameTime: [Double] = []
        for starts in perApp where starts.count >= Self.minimumLaunches {
            var hits = 0, chances = 0, j = 0
            for t in starts where t.day >= 1 {
                chances += 1
                let lo = t - .days(1) - Self.routineWindow, hi = t - .days(1) + Self.routineWindow
                while j < starts.count && starts[j] < lo { j += 1 }
                if j < starts.count && starts[j] <= hi { hits += 1 }
            }
            if chances > 0 { sameTime.append(Double(hits) / Double(chances)) }
        }
        if !sameTime.isEmpty { sameTimeShare.append(Self.median(sameTime)) }

        // Online baselines from day 1 on: most frequently used (top 9 by
        // count so far) and most recently used (last 4 distinct apps).
        var counts = [Int](repeating: 0, count: appCount)
        var recent: [Int] = []
        var mfuHits = 0, mruHits = 0, predictions = 0
        for s in sessions where s.app < appCount {
            if s.start.day >= 1 {
                predictions += 1
                let rank = counts.indices.filter { counts[$0] > counts[s.app] || (counts[$0] == counts[s.app] && $0 < s.app) }.count
                if counts[s.app] > 0 && rank < Self.mfuCandidates { mfuHits += 1 }
                if recent.prefix(4).contains(s.app) { mruHits += 1 }
            }
            counts[s.app] += 1
            recent.removeAll { $0 == s.app }
            recent.insert(s.app, at: 0)
        }
        if predictions > 0 {
            mfuRecall.append(Double(mfuHits) / Double(predictions))
            mruRecall.append(Double(mruHits) / Double(predictions))
        }
    }

    static func median(_ x: [Double]) -> Double { TraceStatistics.quantile(x.sorted(), 0.5) }

    /// The checks, in table order.
    public var checks: [Check] {
        [
            Check(name: "time-of-day entropy per app (normalised, launch-weighted)", median: Self.median(entropy),
                  range: 0.55...0.85,
                  source: "assumption: below the ≈ 0.91 of uniform use over waking hours; apps peak at their own times (Böhmer et al., MobileHCI 2011: news mornings, games nights)"),
            Check(name: "CV of same-app gaps (median over apps)", median: Self.median(gapCV), range: 1.5...6,
                  source: "assumption: > 1 = burstier than Poisson; heavy-tailed, bursty revisits (Jones et al., UbiComp 2015; Falaki et al., MobiSys 2010: the longer since the last interaction, the less likely the next)"),
            Check(name: "P(next app = previous app)", median: Self.median(repeatShare), range: 0.2...0.6,
                  source: "assumption (no published figure at hand)"),
            Check(name: "P(next = previous) / chance (Σ share²)", median: Self.median(repeatLift), range: 1.3...5,
                  source: "assumption: the last app used predicts the next (Huang et al., UbiComp 2012, MDC data)"),
            Check(name: "launches within ±15 min of the same app's time the day before (median over apps)", median: Self.median(sameTimeShare),
                  range: 0.12...0.7, source: "assumption: daily routines per app (Böhmer et al. 2011; Jones et al. 2015); the same world without routines, bursts or transitions gives 0.07"),
            Check(name: "recall of most-frequently-used, \(Self.mfuCandidates) candidates", median: Self.median(mfuRecall),
                  range: 0.70...0.90,
                  source: "Shin, Hong & Dey, UbiComp 2012: MFU 79.8 % at 9 candidates (their model 87.8 %)"),
            Check(name: "recall of most-recently-used, 4 candidates", median: Self.median(mruRecall), range: nil,
                  source: "reported only"),
            Check(name: "apps used per user", median: Self.median(appsUsed), range: nil,
                  source: "catalogue subset; real phones have ≈ 96 installed apps (Yahoo Aviate logs, via Keshet et al. 2015) and users use 10–90+, median ≈ 50 (Cao & Lin 2017)"),
            Check(name: "apps with Background App Refresh on per user", median: Self.median(refreshApps), range: nil,
                  source: "installed apps of the catalogue minus those switched off (assumption)"),
        ]
    }

    /// Every check with a range passes.
    public var allPass: Bool { checks.allSatisfy(\.passes) }

    /// A markdown table: statistic, median over users, range, pass/fail, source.
    public var markdown: String {
        var text = "| predictability (per user, median over \(users) users) | value | range | check | source |\n|---|---|---|---|---|\n"
        for c in checks {
            let range = c.range.map { String(format: "%.2f–%.2f", $0.lowerBound, $0.upperBound) } ?? "—"
            let verdict = c.range == nil ? "—" : (c.passes ? "pass" : "FAIL")
            text += "| \(c.name) | \(String(format: "%.3f", c.median)) | \(range) | \(verdict) | \(c.source) |\n"
        }
        return text
    }
}
