import Dispatch
import Foundation
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

extension WorkQueue {
    /// As `map`, with each item's input made by `input` in item order: an
    /// item is handed out together with its input, under one lock, so
    /// `input` is called for items range.lowerBound, +1, +2, ... in turn
    /// (a stream read front to back) while the bodies run in parallel. A
    /// worker holds one item's input at a time, so at most `threads` inputs
    /// are alive at once. The first error of `input` stops the queue and is
    /// thrown once the workers have joined.
    static func map<Input, T: Sendable>(
        _ range: Range<Int>, threads: Int,
        shouldStop: @Sendable () -> Bool = { false },
        progress: @Sendable (Int) -> Void = { _ in },
        input: @Sendable (Int) throws -> Input,
        _ body: @Sendable (Int, Input) -> T
    ) throws -> [T?] {
        let slots = ResultSlots<T>(count: range.count)
        let feed = OrderedFeed()
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            while !shouldStop() {
                guard let (k, value) = feed.take(range.count, { try input(range.lowerBound + $0) }) else { return }
                slots.store(body(range.lowerBound + k, value), at: k)
                progress(done.wrappingAdd(1, ordering: .relaxed).newValue)
            }
        }
        if let error = feed.error { throw error }
        return slots.collect()
    }
}

/// The next item index and its input, made under the lock; after a failed
/// input, no more items. Every access holds the lock, which is what makes
/// the unchecked `Sendable` sound.
private final class OrderedFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var failure: (any Error)?

    func take<Input>(_ count: Int, _ input: (Int) throws -> Input) -> (Int, Input)? {
        lock.lock()
        defer { lock.unlock() }
        guard failure == nil, next < count else { return nil }
        let k = next
        next += 1
        do { return (k, try input(k)) } catch {
            failure = error
            return nil
        }
    }

    var error: (any Error)? { lock.lock(); defer { lock.unlock() }; return failure }
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
