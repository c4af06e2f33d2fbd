/// A map key logged in wellFormed mode: its bytes in the input when they
/// are canonical already (or not yet put in canonical form), else its
/// canonical encoding in `canonicalKeys`.
///
/// Offsets are stored in 32 bits, as in `OpenItem` (20 bytes instead of 48).
struct LoggedKey {
    private var lower: UInt32
    private var upper: UInt32
    private var entriesLower: UInt32
    private var entriesUpper: UInt32
    var canonical: Bool
    /// A map's first key, when not a canonical leaf, waits in the input
    /// until a second key needs comparing with it; `entries` are its tape entries.
    var deferred: Bool

    init(range: Range<Int>, canonical: Bool, deferred: Bool = false, entries: Range<Int> = 0..<0) {
        lower = UInt32(truncatingIfNeeded: range.lowerBound)
        upper = UInt32(truncatingIfNeeded: range.upperBound)
        entriesLower = UInt32(truncatingIfNeeded: entries.lowerBound)
        entriesUpper = UInt32(truncatingIfNeeded: entries.upperBound)
        self.canonical = canonical
        self.deferred = deferred
    }

    var range: Range<Int> { Int(lower)..<Int(upper) }
    var entries: Range<Int> { Int(entriesLower)..<Int(entriesUpper) }
}

/// Map keys in the structural pass: order and uniqueness (RFC 8949 §4.2.1,
/// §5.6), with wellFormed keys compared through their canonical encodings.
extension StructuralPass {
    /// Checks the key that ends at `position` (tape entries from `firstEntry`).
    /// wellFormed keys that are canonical leaves (the usual keys: small
    /// integers, short strings) of a map not yet on a hash set are logged
    /// here, compared in place with the map's earlier keys; the rest takes
    /// ``checkKeyInFull(_:firstEntry:)``.
    @inline(__always)
    mutating func checkKey(_ key: Range<Int>, firstEntry: Int) throws(CBORError) {
        if !deterministic && top.keySet < 0 && isCanonicalLeaf(key) {
            let candidate = LoggedKey(range: key, canonical: false)
            if keyCount == top.keyBase {
                pushKey(candidate)
                return
            }
            if !keys[top.keyBase].deferred {
                for index in top.keyBase..<keyCount where sameBytes(keys[index], candidate) {
                    throw CBORError(.duplicateMapKey, at: key.lowerBound, "map key repeated (RFC 8949 §5.6)")
                }
                _ = logLinear(candidate)
                return
            }
        }
        try checkKeyInFull(key, firstEntry: firstEntry)
    }

    /// Every other key: ctap2's key types, the deterministic modes' order,
    /// and wellFormed keys through ``logKey(_:firstEntry:)``.
    mutating func checkKeyInFull(_ key: Range<Int>, firstEntry: Int) throws(CBORError) {
        let initial = buffer[key.lowerBound]
        if ctap2 && initial >> 5 > 3 {
            throw CBORError(
                .invalidMapKeyType, at: key.lowerBound,
                "ctap2 map keys must be integers or strings, found major type \(initial >> 5)")
        }
        if deterministic {
            if !top.previousKey.isEmpty {
                let order = compareBytes(top.previousKey, key)
                if order == 0 {
                    throw CBORError(.duplicateMapKey, at: key.lowerBound, "map key repeated")
                }
                if order > 0 {
                    throw CBORError(
                        .unsortedMapKeys, at: key.lowerBound,
                        "map key sorts before the previous key (bytewise order, RFC 8949 §4.2.1)")
                }
            }
            top.previousKey = key
        } else if !logKey(key, firstEntry: firstEntry) {
            throw CBORError(.duplicateMapKey, at: key.lowerBound, "map key repeated (RFC 8949 §5.6)")
        }
    }

    /// Records the canonical encoding of the key at `range` for the map on
    /// top (wellFormed mode, where `1` and `18 01` are the same key); false
    /// when the map already has that key.
    ///
    /// A map's first key is only noted: nothing is compared with it until a
    /// second key comes. So maps used as the only key of maps, nested to any
    /// depth, cost no canonical encoding at all (each level would otherwise
    /// encode everything below it: quadratic in the depth).
    mutating func logKey(_ range: Range<Int>, firstEntry: Int) -> Bool {
        let leaf = isCanonicalLeaf(range)
        if top.keySet < 0 && keyCount == top.keyBase {
            pushKey(LoggedKey(range: range, canonical: false, deferred: !leaf, entries: firstEntry..<tape.count))
            return true
        }
        if top.keySet < 0 && leaf && !keys[top.keyBase].deferred {
            // A leaf key, compared in place with the map's earlier keys.
            let key = LoggedKey(range: range, canonical: false)
            for index in top.keyBase..<keyCount where sameBytes(keys[index], key) { return false }
            return logLinear(key)
        }
        if top.keySet < 0 && keys[top.keyBase].deferred {
            let first = keys[top.keyBase]
            keys[top.keyBase] = canonicalize(first.range, entries: first.entries)
        }
        let key = leaf ? LoggedKey(range: range, canonical: false) : canonicalize(range, entries: firstEntry..<tape.count)
        let spill = keySpill()
        if top.keySet >= 0 {
            let inserted = spill.keySets[top.keySet].insert(bytes(of: key)).inserted
            if key.canonical { spill.canonicalKeys.removeSubrange(key.range.lowerBound...) }
            return inserted
        }
        for index in top.keyBase..<keyCount where sameBytes(keys[index], key) {
            if key.canonical { spill.canonicalKeys.removeSubrange(key.range.lowerBound...) }
            return false
        }
        return logLinear(key)
    }

    /// Logs a key found new among the map's keys; past
    /// ``StructuralPass/linearKeyLimit`` keys the map moves to a hash set.
    @inline(__always) mutating func logLinear(_ key: LoggedKey) -> Bool {
        pushKey(key)
        if keyCount - top.keyBase > Self.linearKeyLimit { moveKeysToSet() }
        return true
    }

    /// Moves the keys of the map on top into a hash set.
    mutating func moveKeysToSet() {
        var set = Set<[UInt8]>()
        for index in top.keyBase..<keyCount { set.insert(bytes(of: keys[index])) }
        dropKeys(of: top)
        let spill = keySpill()
        spill.keySets.append(set)
        top.keySet = spill.keySets.count - 1
    }

    /// Appends `key` to the logged keys.
    @inline(__always) mutating func pushKey(_ key: LoggedKey) {
        keys.append(key)
    }

    /// Appends the canonical encoding of the finished key at `range` (tape
    /// entries `entries`) to the spill's `canonicalKeys` and logs it from there.
    mutating func canonicalize(_ range: Range<Int>, entries: Range<Int>) -> LoggedKey {
        let encoded = canonicalKey(range, entries: entries)
        let spill = keySpill()
        let start = spill.canonicalKeys.count
        spill.canonicalKeys.append(contentsOf: encoded)
        return LoggedKey(range: start..<spill.canonicalKeys.count, canonical: true)
    }

    func bytes(of key: LoggedKey) -> [UInt8] {
        guard key.canonical else { return Array(UnsafeBufferPointer(rebasing: buffer[key.range])) }
        return Array(spill?.canonicalKeys[key.range] ?? [])
    }

    @inline(__always) func sameBytes(_ a: LoggedKey, _ b: LoggedKey) -> Bool {
        guard a.range.count == b.range.count else { return false }
        if !a.canonical && !b.canonical {
            // Both in the input (the usual case: leaf keys): compare in place.
            var i = a.range.lowerBound
            var j = b.range.lowerBound
            while i < a.range.upperBound {
                if buffer[i] != buffer[j] { return false }
                i += 1
                j += 1
            }
            return true
        }
        return (spill?.canonicalKeys ?? []).withUnsafeBufferPointer { scratch in
            let left = UnsafeBufferPointer(rebasing: (a.canonical ? scratch : buffer)[a.range])
            let right = UnsafeBufferPointer(rebasing: (b.canonical ? scratch : buffer)[b.range])
            return left.elementsEqual(right)
        }
    }

    /// Forgets the logged keys of `map` (closed, or moved to a hash set).
    @inline(__always) mutating func dropKeys(of map: OpenItem) {
        if let spill { dropSpilledKeys(of: map, spill) }
        keyCount = map.keyBase
    }

    /// The part of ``dropKeys(of:)`` in the spill: canonical encodings and hash set.
    mutating func dropSpilledKeys(of map: OpenItem, _ spill: KeySpill) {
        var index = map.keyBase
        while index < keyCount && !keys[index].canonical { index += 1 }
        if index < keyCount { spill.canonicalKeys.removeSubrange(keys[index].range.lowerBound...) }
        if map.keySet >= 0 { spill.keySets.removeLast() }
    }

    /// Whether the item at `range` is a leaf whose bytes are already its
    /// canonical encoding: an integer or definite string with the shortest
    /// head, or a simple value (floats and containers take the long way).
    @inline(__always) func isCanonicalLeaf(_ range: Range<Int>) -> Bool {
        let initial = buffer[range.lowerBound]
        let major = initial >> 5
        let info = initial & 0x1F
        guard major <= 3 else { return major == 7 && info <= 24 }
        switch info {
        case 0..<24: return true
        case 24: return buffer[range.lowerBound + 1] >= 24
        case 25: return buffer[range.lowerBound + 1] != 0
        case 26: return buffer[range.lowerBound + 1] != 0 || buffer[range.lowerBound + 2] != 0
        case 27: return (1...4).contains { buffer[range.lowerBound + $0] != 0 }
        default: return false
        }
    }

    /// The canonical encoding of the finished key at `range`, read through
    /// its own tape entries (`own`) in place, so a key is never decoded
    /// twice; a key inside it whose encoding was computed before (a key of
    /// a key) is copied from `keyMemo`, not walked again, so keys nested in
    /// keys cost a copy per level rather than a walk of everything below.
    mutating func canonicalKey(_ range: Range<Int>, entries own: Range<Int>) -> [UInt8] {
        let spill = keySpill()
        let (encoded, used) = encodeKey(at: range.lowerBound, entries: own, memo: spill.keyMemo)
        for offset in used { spill.keyMemo[offset] = nil }
        // Only a key inside another key can be asked for again.
        if top.insideKey { spill.keyMemo[range.lowerBound] = encoded }
        return encoded
    }

    /// The walk of ``canonicalKey(_:entries:)``: the encoding, and the
    /// offsets of the memo entries it took in. The view gets a copy of the
    /// key's own tape entries (indices rebased to start at 0), so the walk
    /// costs in proportion to the key, not to the tape so far.
    func encodeKey(at offset: Int, entries own: Range<Int>, memo: [Int: [UInt8]]) -> (encoded: [UInt8], used: [Int]) {
        var used: [Int] = []
        var out: [UInt8] = []
        let item = CBORItem(storage: storage(bytes: input, entries: own), offset: offset, entry: 0)
        CanonicalWriter.write(item, to: &out) { inner in
            guard let known = memo[inner.offset] else { return nil }
            used.append(inner.offset)
            return known[...]
        }
        return (out, used)
    }

    /// Bytewise lexicographic comparison of two ranges of the input.
    func compareBytes(_ a: Range<Int>, _ b: Range<Int>) -> Int {
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound && j < b.upperBound {
            if buffer[i] != buffer[j] { return buffer[i] < buffer[j] ? -1 : 1 }
            i += 1
            j += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
