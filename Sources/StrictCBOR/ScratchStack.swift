/// A growable stack of plain values in memory the structural pass manages
/// itself: it starts in memory the caller lends (stack memory from
/// `withUnsafeTemporaryAllocation`, so a small document's open items, tape
/// and key log cost no heap allocation and no release) and moves to the heap,
/// doubling, only when that fills up.
///
/// `Element` must be a trivial type (no references): elements are copied
/// bitwise and never deinitialized. Indices below `count` are the caller's
/// to keep in range (the pass only reads entries it has written); the owner
/// calls ``release()`` once, whatever the outcome of the pass.
struct ScratchStack<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var onHeap: Bool
    /// Elements in use; lowering it drops the elements above (they are plain values).
    var count = 0

    /// A stack in `memory` (not empty), or on the heap when `memory` has no room.
    init(_ memory: UnsafeMutableBufferPointer<Element>) {
        if let start = memory.baseAddress, memory.count > 0 {
            base = start
            capacity = memory.count
            onHeap = false
        } else {
            capacity = 16
            base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            onHeap = true
        }
    }

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always) mutating func removeLast() -> Element {
        count -= 1
        return base[count]
    }

    /// Moves the elements to a heap block twice the size.
    @inline(never) mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        if onHeap { base.deallocate() }
        base = larger
        capacity *= 2
        onHeap = true
    }

    /// Copies the elements `range` to `destination` (uninitialized memory),
    /// through `transform` (the key walk rebases tape indices).
    @inline(__always)
    func copy(
        _ range: Range<Int>, to destination: UnsafeMutablePointer<Element>,
        _ transform: (Element) -> Element = { $0 }
    ) {
        for (slot, index) in range.enumerated() { (destination + slot).initialize(to: transform(base[index])) }
    }

    /// Frees the heap block, if the stack moved to one.
    func release() {
        if onHeap { base.deallocate() }
    }
}
