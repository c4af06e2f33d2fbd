/// A map key logged in wellFormed mode: its bytes in the input when they
/// are canonical already (or not yet put in canonical form), else its
/// canonical encoding in `canonicalKeys`.
struct LoggedKey {
    var range: Range<Int>
    var canonical: Bool
    /// A map's first key, when not a canonical leaf, waits in the input
    /// until a second key needs comparing with it; `entries` are its tape entries.
    var deferred = false
    var entries: Range<Int> = 0..<0
}

/// Map keys in the structural pass: order and uniqueness (RFC 8949 §4.2.1,
/// §5.6), with wellFormed keys compared through their canonical encodings.
extension StructuralPass {
    mutating func checkKey(_ key: Range<Int>, firstEntry: Int) throws(CBORError) {
        let initial = buffer[key.lowerBound]
        if mode == .ctap2 && initial >> 5 > 3 {
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
        if top.keySet < 0 && keys.count == top.keyBase {
            keys.append(LoggedKey(range: range, canonical: false, deferred: !leaf, entries: firstEntry..<tape.count))
            return true
        }
        if top.keySet < 0 && keys[top.keyBase].deferred {
            let first = keys[top.keyBase]
            keys[top.keyBase] = canonicalize(first.range, entries: first.entries)
        }
        let key = leaf ? LoggedKey(range: range, canonical: false) : canonicalize(range, entries: firstEntry..<tape.count)
        if top.keySet >= 0 {
            let inserted = keySets[top.keySet].insert(bytes(of: key)).inserted
            if key.canonical { canonicalKeys.removeSubrange(key.range.lowerBound...) }
            return inserted
        }
        for index in top.keyBase..<keys.count where sameBytes(keys[index], key) {
            if key.canonical { canonicalKeys.removeSubrange(key.range.lowerBound...) }
            return false
        }
        keys.append(key)
        if keys.count - top.keyBase > Self.linearKeyLimit {
            // Past the linear limit: move this map's keys into a hash set.
            let set = Set(keys[top.keyBase...].map(bytes(of:)))
            dropKeys(of: top)
            keySets.append(set)
            top.keySet = keySets.count - 1
        }
        return true
    }

    /// Appends the canonical encoding of the finished key at `range` (tape
    /// entries `entries`) to `canonicalKeys` and logs it from there.
    mutating func canonicalize(_ range: Range<Int>, entries: Range<Int>) -> LoggedKey {
        let start = canonicalKeys.count
        canonicalKeys.append(contentsOf: canonicalKey(range, entries: entries))
        return LoggedKey(range: start..<canonicalKeys.count, canonical: true)
    }

    func bytes(of key: LoggedKey) -> [UInt8] {
        key.canonical ? Array(canonicalKeys[key.range]) : Array(UnsafeBufferPointer(rebasing: buffer[key.range]))
    }

    func sameBytes(_ a: LoggedKey, _ b: LoggedKey) -> Bool {
        guard a.range.count == b.range.count else { return false }
        return canonicalKeys.withUnsafeBufferPointer { scratch in
            let left = UnsafeBufferPointer(rebasing: (a.canonical ? scratch : buffer)[a.range])
            let right = UnsafeBufferPointer(rebasing: (b.canonical ? scratch : buffer)[b.range])
            return left.elementsEqual(right)
        }
    }

    /// Forgets the logged keys of `map` (closed, or moved to a hash set).
    mutating func dropKeys(of map: OpenItem) {
        if let first = keys[map.keyBase...].first(where: \.canonical) {
            canonicalKeys.removeSubrange(first.range.lowerBound...)
        }
        keys.removeSubrange(map.keyBase...)
        if map.keySet >= 0 { keySets.removeLast() }
    }

    /// Whether the item at `range` is a leaf whose bytes are already its
    /// canonical encoding: an integer or definite string with the shortest
    /// head, or a simple value (floats and containers take the long way).
    func isCanonicalLeaf(_ range: Range<Int>) -> Bool {
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
        let (encoded, used) = encodeKey(at: range.lowerBound, entry: own.lowerBound)
        for offset in used { keyMemo[offset] = nil }
        // Only a key inside another key can be asked for again.
        if top.insideKey { keyMemo[range.lowerBound] = encoded }
        return encoded
    }

    /// The walk of ``canonicalKey(_:entries:)``: the encoding, and the
    /// offsets of the memo entries it took in. The view shares the tape
    /// only for this call, so the pass's next append does not copy it.
    func encodeKey(at offset: Int, entry: Int) -> (encoded: [UInt8], used: [Int]) {
        var used: [Int] = []
        var out: [UInt8] = []
        let item = CBORItem(storage: CBORStorage(bytes: input, tape: tape), offset: offset, entry: entry)
        CanonicalWriter.write(item, to: &out) { inner in
            guard let known = keyMemo[inner.offset] else { return nil }
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
