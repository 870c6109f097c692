// The report's ablation section for the platforms study: how much of
// Android's difference to iOS each of its mechanisms (Doze, standby
// buckets with their job quotas) makes. Additive: empty unless the suite
// runs a policy on full Android and on Android with one of them off
// (`device.android.doze` / `buckets` false, AndroidPlatform.md A14).
import Device
import Foundation
import Stats

extension ReportWriter {
    /// Which Android mechanisms a configuration's device runs with: nil on iOS.
    func androidMechanisms(_ c: Int) -> (doze: Bool, buckets: Bool)? {
        let d = spec.device(for: spec.configurations[c])
        return d.platform == .android ? (d.android.doze, d.android.buckets) : nil
    }

    /// `b`'s device is `a`'s once `change` is applied to it: the pair
    /// differs in what `change` undoes and nothing else (the same world,
    /// mechanisms and Android table), so their difference is that
    /// mechanism's alone.
    func sameDevice(_ b: Int, as a: Int, once change: (inout DeviceConfiguration) -> Void) -> Bool {
        var device = spec.device(for: spec.configurations[b])
        change(&device)
        return device == spec.device(for: spec.configurations[a])
    }

    /// The configuration running the same policy as `c` on a device that
    /// `matches`, if any.
    func samePolicy(as c: Int, on matches: (Int) -> Bool) -> Int? {
        let configurations = spec.configurations
        return configurations.indices.first { $0 != c && matches($0)
            && Self.samePolicy(configurations[$0].policy, configurations[c].policy) }
    }

    /// "## Android's mechanisms, one at a time": per policy on full Android,
    /// the paired differences full − Doze off (what Doze does) and full −
    /// buckets off (what the bucket quotas do) beside full − iOS, in energy
    /// and fresh-launch ratio with 95 % CIs, and each mechanism's share of
    /// the Android − iOS energy difference (ratio of the mean differences).
    func platformAblationSection() -> String {
        var rows = ""
        let energy = results.metricIndex(Self.energy)
        for a in spec.configurations.indices where androidMechanisms(a).map({ $0.doze && $0.buckets }) == true {
            let android = spec.device(for: spec.configurations[a]).android
            guard let ios = samePolicy(as: a, on: { androidMechanisms($0) == nil
                && sameDevice($0, as: a) { $0.platform = .android; $0.android = android } }) else { continue }
            // A mechanism switched off may differ from full Android in its
            // own constants too (they act on nothing then).
            let noDoze = samePolicy(as: a, on: { androidMechanisms($0).map { !$0.doze && $0.buckets } == true
                && sameDevice($0, as: a) { $0.android.doze = true; $0.android.dozeTimings = android.dozeTimings } })
            let noBuckets = samePolicy(as: a, on: { androidMechanisms($0).map { $0.doze && !$0.buckets } == true
                && sameDevice($0, as: a) {
                    $0.android.buckets = true
                    $0.android.quotaTable = android.quotaTable  // first: it resets jobQuota and fcm
                    $0.android.jobQuota = android.jobQuota
                    $0.android.fcm = android.fcm                // its caps are per bucket
                    $0.android.standby = android.standby
                } })
            guard noDoze != nil || noBuckets != nil, let energy else { continue }
            let total = Aggregation.pairedComparison(results, metric: energy, configuration: a, against: ios).meanDifference
            for (b, what) in [(ios, "all of Android's rules"), (noDoze, "Doze"), (noBuckets, "buckets")] {
                guard let b, let row = pairedDifferenceRows([(a, b)], metrics: [Self.energy, Self.freshness],
                                                            digits: [1, 3]) else { continue }
                let part = Aggregation.pairedComparison(results, metric: energy, configuration: a, against: b).meanDifference
                var share = b == ios || !(part / total).isFinite ? "–" : String(format: "%.0f %%", 100 * part / total)
                // "-0 %" reads as a direction the data does not have.
                if share == "-0 %" { share = "0 %" }
                rows += row.dropLast(1) + " \(what) | \(share) |\n"
            }
        }
        guard !rows.isEmpty else { return "" }
        var s = "## Android's mechanisms, one at a time\n\n"
        s += "How much of Android's difference to iOS comes from Doze and how much from App Standby Buckets with their job quotas (Docs/AndroidPlatform.md A9–A14): each policy on full Android against the same policy on iOS, on Android with Doze off (`device.android.doze: false`) and on Android with buckets off (`device.android.buckets: false`), for the same users. Per-user paired differences, mean with 95 % CI, energy per user-day. Full − Doze off is what Doze changes; full − buckets off what the quotas change; the share is that difference over full − iOS (a ratio of means, no CI). What neither explains is WorkManager's request semantics (AndroidPlatform.md A1–A8) and the mechanisms' interaction.\n\n"
        s += "| full Android − other | Δ energy (J/day) | Δ fresh-launch ratio | what the other lacks | share of Δ energy vs iOS |\n|---|---|---|---|---|\n"
        return s + rows + "\n"
    }
}
