/// Names one pending event in an ``EventQueue``, for
/// cancelling or rescheduling it.
///
/// A handle is a slot index plus a generation stamped at the push. Slots are
/// reused after their event is popped or cancelled, and every push stamps a
/// new generation, so a handle that outlived its event is simply stale: `cancel` returns `false` and `reschedule` returns `nil`. Stale handles
/// are harmless; they never touch another event.
@frozen
public struct EventHandle: Hashable, Sendable {
    /// Index of the queue's slot that held the event.
    public let slot: UInt32
    /// A stamp unique to the push that created the event (the queue's push
    /// count, wrapping at 2^32: a stale handle could alias only if its slot
    /// were reused by exactly the 2^32-th push after it).
    public let generation: UInt32

    @inlinable
    public init(slot: UInt32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}

extension EventHandle: CustomStringConvertible {
    public var description: String { "EventHandle(\(slot)#\(generation))" }
}
