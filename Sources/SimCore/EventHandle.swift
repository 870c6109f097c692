/// Names one pending event in an ``EventQueue`` (and so in an ``Engine``), for
/// cancelling or rescheduling it.
///
/// A handle is a slot index plus the slot's generation when the event was
/// pushed. Slots are reused after their event is popped or cancelled, and every
/// reuse changes the generation, so a handle that outlived its event is simply
/// stale: `cancel` returns `false` and `reschedule` returns `nil`. Stale handles
/// are harmless; they never touch another event.
@frozen
public struct EventHandle: Hashable, Sendable {
    /// Index of the queue's slot that held the event.
    public let slot: UInt32
    /// The slot's generation when the event was pushed (bumped on every reuse;
    /// it wraps after 2^32 reuses of one slot, the only way a stale handle
    /// could alias).
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
