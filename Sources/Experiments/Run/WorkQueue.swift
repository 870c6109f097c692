import Dispatch
import Synchronization

/// Runs `body` for every index in `range` on `threads` threads, writing each
/// result into its own slot, and returns the results in index order — so the
/// output cannot depend on which thread ran what or when. Stops taking new
/// items once `shouldStop` returns true (the interrupted items stay nil).
///
/// Items are handed out one at a time from an atomic counter: simulations
/// vary in length by user, so static partitioning would leave a core idle.
enum WorkQueue {
    static func map<T: Sendable>(
        _ range: Range<Int>, threads: Int,
        shouldStop: @Sendable () -> Bool = { false },
        progress: @Sendable (Int) -> Void = { _ in },
        _ body: @Sendable (Int) -> T
    ) -> [T?] {
        let slots = ResultSlots<T>(count: range.count)
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            while !shouldStop() {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < range.count else { return }
                slots.store(body(range.lowerBound + k), at: k)
                progress(done.wrappingAdd(1, ordering: .relaxed).newValue)
            }
        }
        return slots.collect()
    }
}

/// One slot per work item, each written by exactly one worker and read only
/// after all workers have joined (`concurrentPerform` returns), which is why
/// the unchecked `Sendable` is sound.
private final class ResultSlots<T>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<T?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    func store(_ value: T, at i: Int) { storage[i] = value }

    func collect() -> [T?] { Array(storage) }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
