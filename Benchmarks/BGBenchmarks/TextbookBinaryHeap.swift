// The baseline: a plain textbook binary min-heap (CLRS style), array of
// structs, swap-based sift, ties broken by an insertion sequence number.
// Deliberately not tuned: it is what the tuned queue is measured against.

struct TextbookBinaryHeap {
    struct Element {
        var time: Int64
        var sequence: UInt64
        var id: UInt32
        /// Generation tag, for lazy cancellation in the cancel-heavy benchmark.
        var tag: UInt32
    }

    private(set) var elements: [Element] = []
    private var nextSequence: UInt64 = 0

    init(minimumCapacity: Int = 0) { elements.reserveCapacity(minimumCapacity) }

    var count: Int { elements.count }

    @inline(__always)
    private func less(_ a: Element, _ b: Element) -> Bool {
        a.time < b.time || (a.time == b.time && a.sequence < b.sequence)
    }

    mutating func push(_ time: Int64, id: UInt32, tag: UInt32 = 0) {
        elements.append(Element(time: time, sequence: nextSequence, id: id, tag: tag))
        nextSequence += 1
        var i = elements.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if !less(elements[i], elements[parent]) { break }
            elements.swapAt(i, parent)
            i = parent
        }
    }

    mutating func popMin() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var i = 0
        let n = elements.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < n && less(elements[l], elements[smallest]) { smallest = l }
            if r < n && less(elements[r], elements[smallest]) { smallest = r }
            if smallest == i { break }
            elements.swapAt(i, smallest)
            i = smallest
        }
        return top
    }
}
