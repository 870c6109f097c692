// The report's platforms section: the same policy on iOS and on Android,
// for the same users. Additive: one section, empty unless the suite runs
// a policy on both platforms (a `devices` axis with `device.platform`).
import Device
import Foundation
import Stats

extension ReportWriter {
    /// "## iOS and Android, the same users": for every configuration on an
    /// Android device whose policy also runs on an iOS device of the suite,
    /// the per-user paired differences Android − iOS in background energy,
    /// fresh-launch ratio, runs and wakes, with 95 % CIs (the users are the
    /// same people with the same draws on both: Docs/AndroidPlatform.md).
    /// Empty when no such pair exists.
    func platformsSection() -> String {
        let configurations = spec.configurations
        var pairs: [(Int, Int)] = []  // (configuration, the one it is set against)
        // Full Android only: the ablation rows (a mechanism off) have their own section.
        for (a, c) in configurations.enumerated() where androidMechanisms(a).map({ $0.doze && $0.buckets }) == true {
            if let i = configurations.indices.first(where: {
                spec.device(for: configurations[$0]).platform == .ios
                    && Self.samePolicy(configurations[$0].policy, c.policy)
            }) {
                pairs.append((a, i))
            }
        }
        guard let rows = pairedDifferenceRows(pairs, metrics: [Self.energy, Self.freshness, "tasks_run", "wakes"],
                                              digits: [1, 3, 2, 2]) else { return "" }
        var s = "## iOS and Android, the same users\n\n"
        s += "Each policy on an Android device against the same policy on an iOS device of this suite: per-user paired differences Android − iOS, mean with 95 % CI; energy, runs and wakes per user-day. The users, their sessions, network, charging and every drawn failure are the same on both platforms; only the OS's rules differ (Docs/AndroidPlatform.md).\n\n"
        s += "| Android − iOS | Δ energy (J/day) | Δ fresh-launch ratio | Δ runs/day | Δ wakes/day |\n|---|---|---|---|---|\n"
        s += rows
        return s + "\n"
    }
}
