import SimCore
import Traces

/// An interval of trace time, `[start, end)`: a session, a charging interval.
protocol TraceInterval {
    var start: SimTime { get }
    var end: SimTime { get }
}

extension DeviceTrace.Session: TraceInterval {}
extension ChargingInterval: TraceInterval {}

/// A cursor over time-sorted, disjoint intervals, walked boundary by
/// boundary: the interval that starts or ends next (`index`), whether it
/// is under way (`inside`), and that boundary (`nextBoundary`: its end if
/// it is under way, else its start; `.farFuture` after the last). The
/// sessions (``SessionStream``) and the charger (``PowerSupply``) walk
/// their trace intervals with one.
struct IntervalCursor<Interval: TraceInterval> {
    let intervals: [Interval]
    /// The interval that starts or ends next.
    private(set) var index = 0
    /// Whether the interval at `index` is under way.
    private(set) var inside = false
    /// The next boundary (`.farFuture`: none).
    private(set) var nextBoundary: SimTime = .farFuture

    init(_ intervals: [Interval]) {
        self.intervals = intervals
        moved()
    }

    /// The interval at `nextBoundary`: starting, or under way.
    @inline(__always)
    var current: Interval { intervals[index] }

    /// The interval at `index` starts now.
    @inline(__always)
    mutating func enter() {
        inside = true
        moved()
    }

    /// The interval under way ends now.
    @inline(__always)
    mutating func leave() {
        inside = false
        index += 1
        moved()
    }

    @inline(__always)
    private mutating func moved() {
        if index < intervals.count {
            let i = intervals[index]
            nextBoundary = inside ? i.end : i.start
        } else {
            nextBoundary = .farFuture
        }
    }
}
