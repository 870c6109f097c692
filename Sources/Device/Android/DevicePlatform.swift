/// Which phone OS the simulated device runs: whose background-work rules
/// the simulator applies (JSON key `device.platform`).
///
/// `ios` is the default and the model every earlier result was made with;
/// its rules live where they always have (`OSRules`, `EligibilityRules`,
/// `BackgroundTaskScheduler`, Docs/Semantics.md). `android` adds the rules
/// of ``AndroidPlatform`` on the same device, the same users and the same
/// draws (Docs/AndroidPlatform.md): the platform consumes no random draws.
public enum DevicePlatform: String, Codable, Sendable, Hashable, CaseIterable {
    case ios
    case android
}
