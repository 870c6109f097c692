import SimCore

/// What the simulator keeps of a pending request's ``RequestPlan``: the
/// plan in plain microseconds, and the request fields the decision loop
/// tests, so that the loop reads one 32-byte record per request and not
/// the request itself.
struct KeptPlan {
    /// Runs from here if the OS allows it: the plan's `runFrom`, but not
    /// before the request's earliest begin (so one comparison tests both;
    /// see `EligibilityTest.allows(shape:app:from:)`).
    var runFrom: Int64
    /// The plan's wake; `Int64.max` for none (the same as a wake at the end
    /// of time: both leave the policy's timer at `.farFuture`).
    var wake: Int64
    /// The request's app and id (the id checks the lockstep with `pending`).
    var app: Int32
    var id: UInt32
    /// `EligibilityTest.shape` of the request.
    var shape: UInt8
    /// False until the policy is asked (a new request), and again after an
    /// observation that may change the plan: `runFrom` and `wake` are then
    /// not to be read.
    var isPlanned: Bool

    /// The record of a request not yet planned.
    init(unplanned r: TaskRequest) {
        runFrom = .max
        wake = .max
        app = r.app
        id = r.id.rawValue
        shape = UInt8(truncatingIfNeeded: EligibilityTest.shape(r))
        isPlanned = false
    }
}

/// The plans the simulator keeps for a ``RequestPlanningPolicy``, one per
/// pending request, in the order of `pending` (index i is `pending[i]`'s).
///
/// Kept in lockstep by the simulator's three changes to `pending`: a
/// submission (appended, or replacing a request: that one's record goes and
/// the new one is appended, as the scheduler does), a request put back
/// (appended), a request taken to run (removed). Unsafe fixed storage like
/// `AppStateTable`, for the same reason (no uniqueness check per write);
/// the capacity is the most requests `pending` can hold (one per app and
/// interned identifier), and every index is checked.
final class KeptPlans {
    let capacity: Int
    private(set) var count = 0
    /// Records not planned (`isPlanned` false): when 0, the decision loop
    /// reads the records without planning any.
    private(set) var unplanned = 0
    private let records: UnsafeMutablePointer<KeptPlan>

    init(capacity: Int) {
        self.capacity = capacity
        records = .allocate(capacity: max(capacity, 1))
    }

    deinit {
        records.deinitialize(count: count)
        records.deallocate()
    }

    /// A list with the same records.
    func copy() -> KeptPlans {
        let other = KeptPlans(capacity: capacity)
        other.records.initialize(from: records, count: count)
        other.count = count
        other.unplanned = unplanned
        return other
    }

    subscript(i: Int) -> KeptPlan {
        @inline(__always) unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(count), "kept plan index out of range")
            return UnsafePointer(records + i)
        }
    }

    /// Keeps `plan` for record `i`, which was not planned.
    func setPlan(at i: Int, runFrom: Int64, wake: Int64) {
        precondition(UInt(bitPattern: i) < UInt(count) && !records[i].isPlanned, "no unplanned record there")
        records[i].runFrom = runFrom
        records[i].wake = wake
        records[i].isPlanned = true
        unplanned -= 1
    }

    /// The records, for the decision loop to read (base and count read once).
    var buffer: UnsafeBufferPointer<KeptPlan> { UnsafeBufferPointer(start: records, count: count) }

    func append(_ plan: KeptPlan) {
        precondition(count < capacity, "more pending requests than the scheduler allows")
        (records + count).initialize(to: plan)
        count += 1
        if !plan.isPlanned { unplanned += 1 }
    }

    func remove(at i: Int) {
        precondition(UInt(bitPattern: i) < UInt(count), "kept plan index out of range")
        if !records[i].isPlanned { unplanned -= 1 }
        // Trivial records: a plain move of the rest, no deinitialisation.
        (records + i).update(from: records + i + 1, count: count - i - 1)
        count -= 1
    }

    /// Marks the plans of `app`'s requests (every plan if nil) to be asked again.
    func forget(app: Int32?) {
        for i in 0 ..< count where records[i].isPlanned && (app == nil || records[i].app == app) {
            records[i].isPlanned = false
            unplanned += 1
        }
    }
}
