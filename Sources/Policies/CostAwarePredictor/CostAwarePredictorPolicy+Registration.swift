import Device
import SimCore

extension CostAwarePredictorPolicy {
    /// The `cost-aware-predictor` entry of the standard registry. Switches
    /// are numbers, 1 on and 0 off (`onOff`); number ranges are checked when
    /// a spec is loaded, durations only to be positive.
    public static let registration = PolicyDescriptor(
        name: "cost-aware-predictor",
        summary: "learns launches (time of week, recency, previous app) and content rates; refreshes where expected fresh launches per joule clear a bar adapted toward a daily energy target",
        parameters: [
            PolicyParameter("targetJoulesPerDay", .number, default: .number(60), range: 0...1e9, "background joules per day the bar adapts toward (assumption)"),
            PolicyParameter("initialGainPerJoule", .number, default: .number(0.05), range: 1e-5...10, "expected fresh launches per joule a refresh must bring on day 0 (assumption)"),
            PolicyParameter("adaptRate", .number, default: .number(0.5), range: 0...4, "bar × (spent/target)^adaptRate each day; 0 keeps it fixed (assumption)"),
            PolicyParameter("capFactor", .number, default: .number(3), range: 1...1e9, "no refresh once today's spending reaches capFactor × target (assumption)"),
            PolicyParameter("recheck", .duration, default: .string("15m"), range: 60...86_400, "how soon a refresh not worth it now is looked at again (assumption)"),
            PolicyParameter("horizon", .duration, default: .string("24h"), range: 3_600...7 * 86_400, "how far ahead the next launch is looked for (assumption)"),
            PolicyParameter("decay", .number, default: .number(0.95), range: 0...1, "per-day weight of past launches and content reports (assumption)"),
            PolicyParameter("priorDays", .number, default: .number(1), range: 0...1e6, "days' weight of the app's flat rate in each time-of-week bin (assumption)"),
            .onOff("timeOfWeek", default: true, "1: launch rates by hour and weekday/weekend; 0: one flat rate per app"),
            .onOff("recency", default: true, "1: a launch raises the app's rate for recencyWindow; 0: off"),
            PolicyParameter("recencyWindow", .duration, default: .string("30m"), range: 1...86_400, "how long a launch raises the app's own rate (assumption)"),
            .onOff("previousApp", default: true, "1: a session's end raises the rates of the apps that follow it; 0: off"),
            PolicyParameter("transitionWindow", .duration, default: .string("10m"), range: 1...86_400, "how long after a session's end its followers' rates are raised (assumption)"),
            .onOff("learnContent", default: true, "1: learn each app's update rate from fetch results; 0: the prior for every app"),
            PolicyParameter("priorUpdatesPerHour", .number, default: .number(0.5), range: 0...1000, "update rate believed before any report (assumption)"),
            PolicyParameter("priorHours", .number, default: .number(2), range: 0...1e6, "hours of exposure the prior weighs (assumption)"),
            PolicyParameter("cellularJoules", .number, default: .number(14), range: 0...1e6, "cost of a refresh on a cold cellular radio (Huang et al. 2012 LTE model)"),
            PolicyParameter("wifiJoules", .number, default: .number(1), range: 0...1e6, "cost of a refresh on Wi-Fi (assumption)"),
            PolicyParameter("rideJoules", .number, default: .number(1), range: 0...1e6, "cost when the radio is already up (assumption)"),
            PolicyParameter("chargingFactor", .number, default: .number(1), range: 0...1, "factor on the cost while charging (1: charger energy counts in full)"),
            .onOff("holdForLaunch", default: false, "1: hold an eligible refresh for a likely launch (the timing ingredient); 0: run it when eligible"),
            PolicyParameter("maxHold", .duration, default: .string("2h"), range: 60...86_400, "longest an eligible refresh is held past its earliestBeginDate (assumption)"),
            PolicyParameter("triggerProbability", .number, default: .number(0.2), range: 0...1, "P(app next | app now) at which a held refresh runs (assumption)"),
            PolicyParameter("followWindow", .duration, default: .string("5m"), range: 1...3_600, "a launch this soon after a session's end follows that session (assumption)"),
            .onOff("holdEpisodeOnly", default: false, "1: hold only while a session is on or ended within followWindow; 0: at any time"),
            PolicyParameter("holdCost", .number, default: .number(1), range: 0...1000, "weight of the unannounced launches' worst-case loss in the hold's stopping test (assumption)"),
        ]) { p, _ in
        CostAwarePredictorPolicy(
            targetJoulesPerDay: p.number("targetJoulesPerDay"), initialGainPerJoule: p.number("initialGainPerJoule"),
            adaptRate: p.number("adaptRate"), capFactor: p.number("capFactor"), recheck: p.duration("recheck"),
            horizon: p.duration("horizon"), decay: p.number("decay"), priorDays: p.number("priorDays"),
            timeOfWeek: p.isOn("timeOfWeek"),
            recencyWindow: p.isOn("recency") ? p.duration("recencyWindow") : nil,
            transitionWindow: p.isOn("previousApp") ? p.duration("transitionWindow") : nil,
            learnContent: p.isOn("learnContent"), priorUpdatesPerHour: p.number("priorUpdatesPerHour"),
            priorHours: p.number("priorHours"), cellularJoules: p.number("cellularJoules"),
            wifiJoules: p.number("wifiJoules"), rideJoules: p.number("rideJoules"),
            chargingFactor: p.number("chargingFactor"),
            holdForLaunch: p.isOn("holdForLaunch"), maxHold: p.duration("maxHold"),
            triggerProbability: p.number("triggerProbability"), followWindow: p.duration("followWindow"),
            holdCost: p.number("holdCost"), holdEpisodeOnly: p.isOn("holdEpisodeOnly"))
    }
}

extension PolicyParameter {
    /// A switch: a number, 1 on and 0 off, as the registry has no boolean kind.
    fileprivate static func onOff(_ name: String, default on: Bool, _ summary: String) -> PolicyParameter {
        PolicyParameter(name, .number, default: .number(on ? 1 : 0), range: 0...1, summary)
    }
}

extension PolicyParameterValues {
    /// Whether the switch `name` (`PolicyParameter.onOff`) is on: a spec may
    /// give any number in [0, 1], and the upper half is on.
    fileprivate func isOn(_ name: String) -> Bool { number(name) >= 0.5 }
}
