import Device
import SimCore

extension IOSSystemPolicy {
    /// The `ios-system` entry of the standard registry. Number ranges are
    /// checked when a spec is loaded; a duration is only checked to be
    /// positive (the registry has no range for durations).
    public static let registration = PolicyDescriptor(
        name: "ios-system",
        summary: "model of iOS's own discretionary scheduler: usage priority, energy/data budgets, fetch-result feedback, rate limit, night processing (baseline)",
        parameters: [
            PolicyParameter("baseInterval", .duration, default: .string("1h"), range: 60...30 * 86_400, "refresh interval at priority 1, rate 1 (assumption)"),
            PolicyParameter("usageDecay", .number, default: .number(0.9), range: 0...1, "per-day weight of past launches (assumption)"),
            PolicyParameter("energyBudget", .number, default: .number(100), range: 0...1e12, "background battery joules per day (assumption)"),
            PolicyParameter("energyBurst", .number, default: .number(0.1), range: 0...1, "share of a day's budgets available at midnight (assumption)"),
            PolicyParameter("cellularBytesPerDay", .number, default: .number(CellularDataBudget.defaultBytesPerDay), range: 0...1e12, "background refresh bytes per day on cellular (assumption: 48 default refreshes)"),
            PolicyParameter("launchesPerHour", .number, default: .number(12), range: 0...3600, "refreshes per sliding hour, all apps (assumption)"),
            PolicyParameter("newDataGain", .number, default: .number(1.25), range: 1...10, "rate × this after .newData (assumption)"),
            PolicyParameter("noDataFactor", .number, default: .number(0.9), range: 0...1, "rate × this after .noData (assumption)"),
            PolicyParameter("failedFactor", .number, default: .number(0.7), range: 0...1, "rate × this after a failure (assumption)"),
            PolicyParameter("expiredFactor", .number, default: .number(0.5), range: 0...1, "rate × this after an expiration (assumption)"),
            PolicyParameter("slowFactor", .number, default: .number(0.8), range: 0...1, "rate × this after a run longer than slowRun (assumption)"),
            PolicyParameter("slowRun", .duration, default: .string("10s"), range: 1...86_400, "a refresh longer than this is slow (assumption)"),
            PolicyParameter("minRate", .number, default: .number(0.1), range: 0.001...1, "lowest rate multiplier (assumption)"),
            PolicyParameter("maxRate", .number, default: .number(4), range: 1...1000, "highest rate multiplier (assumption)"),
            PolicyParameter("distrustFor", .duration, default: .string("7d"), range: 1...365 * 86_400, "after .newData from a failed/expired run, the app's .newData counts as .noData this long (assumption)"),
            PolicyParameter("processingIdle", .duration, default: .string("30m"), range: 1...86_400, "screen off this long on the charger before processing (assumption)"),
            PolicyParameter("processingRecency", .duration, default: .string("7d"), range: 3_600...365 * 86_400, "processing only for apps launched within this (assumption)"),
        ]) { p, _ in
        var f = OpportunityRate.Factors()
        f.newDataGain = p.number("newDataGain")
        f.noDataFactor = p.number("noDataFactor")
        f.failedFactor = p.number("failedFactor")
        f.expiredFactor = p.number("expiredFactor")
        f.slowFactor = p.number("slowFactor")
        f.slowRun = p.duration("slowRun")
        f.minRate = p.number("minRate")
        f.maxRate = p.number("maxRate")
        f.distrustFor = p.duration("distrustFor")
        return IOSSystemPolicy(
            baseInterval: p.duration("baseInterval"),
            usage: UsagePriority(decay: p.number("usageDecay")),
            energy: EnergyBudget(perDay: p.number("energyBudget"), burst: p.number("energyBurst")),
            data: CellularDataBudget(bytesPerDay: p.number("cellularBytesPerDay"), burst: p.number("energyBurst")),
            rate: OpportunityRate(factors: f),
            limiter: RateLimiter(launchesPerHour: p.number("launchesPerHour")),
            placement: ProcessingPlacement(idle: p.duration("processingIdle"), recency: p.duration("processingRecency")))
    }
}
