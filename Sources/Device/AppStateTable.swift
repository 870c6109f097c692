import SimCore

/// One app's mutable bookkeeping in a simulation (see `AppStateTable`).
struct AppState {
    /// Index of the first content update the app's copy does not include.
    var updateCursor = 0
    /// When the app last fetched content (time 0 if never).
    var lastFetch = SimTime.zero
    /// When the app's last processing task succeeded.
    var lastProcessingDone: SimTime? = nil
    /// CPU seconds of processing kept from expired runs (checkpointing apps).
    var processingProgress = 0.0
    /// A background refresh brought content no launch has shown yet.
    var unconsumedRefresh = false
}

/// The simulator's per-app mutable state, its per-slot run counts and its
/// wakes by hour, each in one fixed allocation.
///
/// Why not Swift arrays: every write to an array stored in the simulator
/// checks the array's uniqueness (a call to `swift_isUniquelyReferenced`)
/// and stores the buffer back. Here a write is a store (the measurement is
/// in Docs/Performance.md).
///
/// The unsafe access is confined to this type (as in swift-collections'
/// `Heap`): the buffers are allocated and initialised in `init`, never
/// resized, and freed in `deinit`; every index is checked against the
/// size. It is a class, so a copy of the simulator shares it: the
/// simulator makes its table unique before it runs (`makeUnique`).
final class AppStateTable {
    let appCount: Int
    private let apps: UnsafeMutablePointer<AppState>
    /// Per task slot (app·3 + kind): tasks of the slot started so far.
    private let runs: UnsafeMutablePointer<UInt64>
    /// Background wakes by hour of day (0–23); copied to the metrics at the end.
    private let wakes: UnsafeMutablePointer<Int>

    init(appCount: Int) {
        self.appCount = appCount
        apps = .allocate(capacity: appCount)
        apps.initialize(repeating: AppState(), count: appCount)
        runs = .allocate(capacity: appCount * 3)
        runs.initialize(repeating: 0, count: appCount * 3)
        wakes = .allocate(capacity: 24)
        wakes.initialize(repeating: 0, count: 24)
    }

    deinit {
        apps.deinitialize(count: appCount)
        apps.deallocate()
        runs.deallocate()
        wakes.deallocate()
    }

    /// A table with the same contents.
    func copy() -> AppStateTable {
        let other = AppStateTable(appCount: appCount)
        other.apps.update(from: apps, count: appCount)
        other.runs.update(from: runs, count: appCount * 3)
        other.wakes.update(from: wakes, count: 24)
        return other
    }

    /// App `app`'s state.
    subscript(app: Int) -> AppState {
        @inline(__always) unsafeAddress {
            precondition(app >= 0 && app < appCount, "app index out of range")
            return UnsafePointer(apps + app)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(app >= 0 && app < appCount, "app index out of range")
            return apps + app
        }
    }

    /// Tasks started so far in task slot `slot` (app·3 + kind).
    subscript(runsOf slot: Int) -> UInt64 {
        @inline(__always) unsafeAddress {
            precondition(slot >= 0 && slot < appCount * 3, "task slot out of range")
            return UnsafePointer(runs + slot)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(slot >= 0 && slot < appCount * 3, "task slot out of range")
            return runs + slot
        }
    }

    /// Background wakes in hour of day `hour` (0–23).
    subscript(wakesIn hour: Int) -> Int {
        @inline(__always) unsafeAddress {
            precondition(hour >= 0 && hour < 24, "hour out of range")
            return UnsafePointer(wakes + hour)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(hour >= 0 && hour < 24, "hour out of range")
            return wakes + hour
        }
    }

    /// The wakes by hour, as `UserMetrics.wakesByHour`.
    var wakesByHour: [Int] { Array(UnsafeBufferPointer(start: wakes, count: 24)) }
}
