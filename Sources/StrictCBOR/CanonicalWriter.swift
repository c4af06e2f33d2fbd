/// The canonical encoder's walk over a value or a decoded item: an explicit
/// stack of open arrays and maps instead of recursion, so nesting costs heap
/// (one frame per open container), never call stack.
///
/// A map is written in two phases: its keys are encoded one after the other
/// into the map's own scratch buffer (a key that is itself a map does the
/// same one level further), then its entries are written in the bytewise
/// order of those encodings (RFC 8949 §4.2.1), sorted only when they came
/// out of order.
struct CanonicalWriter<T: CBORNodeConvertible> {
    /// One open array or map.
    struct Frame {
        /// Array items, or map keys.
        var items: [T]
        /// Map values, in the order of `items`; empty for arrays.
        var values: [T]
        var isMap: Bool
        /// Arrays: the next item. Maps: the next key to encode, then the next entry to write.
        var next = 0
        /// First phase of a map: output goes to `keyBytes`.
        var collectingKeys: Bool
        var keyBytes: [UInt8] = []
        var keyStart = 0
        var keyRanges: [Range<Int>] = []
        var sorted = true
        /// Entry indices in the order they are written.
        var order: [Int] = []
    }

    var out: [UInt8] = []
    var frames: [Frame] = []
    /// Indices in `frames` of the maps collecting keys, innermost last.
    var collectors: [Int] = []

    /// Appends the canonical encoding of `root` to `out`. `known` may give
    /// the canonical encoding of an item inside `root` (the decoder's keys
    /// of keys), which is then copied instead of walked.
    static func write(_ root: T, to out: inout [UInt8], known: (T) -> ArraySlice<UInt8>? = { _ in nil }) {
        var writer = CanonicalWriter()
        swap(&writer.out, &out)
        var pending: T? = root
        while let value = pending {
            if let bytes = known(value) {
                writer.emit { $0.append(contentsOf: bytes) }
                pending = writer.nextChild()
            } else {
                pending = writer.open(value) ?? writer.nextChild()
            }
        }
        swap(&writer.out, &out)
    }

    /// Runs `body` on the current output: the innermost map collecting keys, else `out`.
    mutating func emit<R>(_ body: (inout [UInt8]) -> R) -> R {
        if let index = collectors.last { return body(&frames[index].keyBytes) }
        return body(&out)
    }

    /// Writes a leaf, or the head of a container or tag (opening a frame
    /// for a non-empty container). Returns a tag's content, written next.
    mutating func open(_ value: T) -> T? {
        if emit({ value.appendCanonicalLeaf(to: &$0) }) { return nil }
        switch value.node {
        case .tag(let number, let content):
            emit { CBOREncoder.appendHead(major: 6, number, to: &$0) }
            return content
        case .array(let items, _):
            emit { CBOREncoder.appendHead(major: 4, UInt64(items.count), to: &$0) }
            if !items.isEmpty { frames.append(Frame(items: items, values: [], isMap: false, collectingKeys: false)) }
        case .map(let entries, _):
            emit { CBOREncoder.appendHead(major: 5, UInt64(entries.count), to: &$0) }
            if !entries.isEmpty {
                frames.append(Frame(items: entries.map(\.key), values: entries.map(\.value), isMap: true, collectingKeys: true))
                collectors.append(frames.count - 1)
            }
        default:
            break
        }
        return nil
    }

    /// The next item to write inside the open frames, closing each frame
    /// that is done; nil when the walk is over.
    mutating func nextChild() -> T? {
        while let top = frames.indices.last {
            let next = frames[top].next
            guard frames[top].isMap else {
                if next < frames[top].items.count {
                    frames[top].next += 1
                    return frames[top].items[next]
                }
                frames.removeLast()
                continue
            }
            if frames[top].collectingKeys {
                if next > 0 { recordKey(of: top) }
                if next < frames[top].items.count {
                    frames[top].next += 1
                    frames[top].keyStart = frames[top].keyBytes.count
                    return frames[top].items[next]
                }
                finishKeys(of: top)
                continue
            }
            if next < frames[top].order.count {
                frames[top].next += 1
                let entry = frames[top].order[next]
                let key = frames[top].keyBytes[frames[top].keyRanges[entry]]
                emit { $0.append(contentsOf: key) }
                return frames[top].values[entry]
            }
            frames.removeLast()
        }
        return nil
    }

    /// Notes the range of the key just encoded, and whether it kept the order.
    mutating func recordKey(of index: Int) {
        let range = frames[index].keyStart..<frames[index].keyBytes.count
        if let last = frames[index].keyRanges.last,
            !frames[index].keyBytes[last].lexicographicallyPrecedes(frames[index].keyBytes[range])
        {
            frames[index].sorted = false
        }
        frames[index].keyRanges.append(range)
    }

    /// Ends a map's first phase: its entries are written next, by encoded key.
    mutating func finishKeys(of index: Int) {
        collectors.removeLast()
        frames[index].collectingKeys = false
        frames[index].next = 0
        var order = Array(frames[index].keyRanges.indices)
        if !frames[index].sorted {
            let keys = frames[index].keyBytes
            let ranges = frames[index].keyRanges
            order.sort { keys[ranges[$0]].lexicographicallyPrecedes(keys[ranges[$1]]) }
        }
        frames[index].order = order
    }
}
