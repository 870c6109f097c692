import SimCore

/// The rate limiting of `ios-system`: at most `launchesPerHour` background
/// refresh launches, all apps together, in any sliding hour.
///
/// Source: WWDC 2020 "Background execution demystified", factor "rate
/// limiting": the system spaces out launches. Apple publishes no figure:
/// `launchesPerHour` (number, runs per hour, range 0…3600, default 12) is
/// an assumption. Per-app spacing is the opportunity interval's
/// (``IOSSystemPolicy``), not this limiter's.
///
/// It counts the starts of refreshes seen to finish (never asks), so a run
/// still in progress is not counted until it ends: a decision asks at most
/// the free room, and the next one comes when that work has finished.
public struct RateLimiter: Sendable, Hashable {
    public var launchesPerHour: Double
    /// Starts of refreshes seen to finish within the last hour, oldest first.
    var recent: [SimTime] = []

    public init(launchesPerHour: Double = 12) { self.launchesPerHour = launchesPerHour }

    static var window: SimDuration { .hours(1) }

    /// A refresh that started at `start` finished.
    public mutating func record(start: SimTime) {
        var i = recent.endIndex
        while i > recent.startIndex && recent[i - 1] > start { i -= 1 }
        recent.insert(start, at: i)
    }

    mutating func forget(before t: SimTime) {
        let cut = t - Self.window
        if let keep = recent.firstIndex(where: { $0 > cut }) {
            if keep > 0 { recent.removeFirst(keep) }
        } else {
            recent.removeAll()
        }
    }

    /// How many more refreshes may start at `t`.
    public mutating func room(at t: SimTime) -> Int {
        forget(before: t)
        return max(0, Int(launchesPerHour.rounded(.down)) - recent.count)
    }

    /// When the oldest counted start leaves the window (nil: nothing counted).
    public func nextRoom() -> SimTime? { recent.first.map { $0 + Self.window } }
}
