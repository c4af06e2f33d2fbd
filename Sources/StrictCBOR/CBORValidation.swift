extension CBORDecoder {
    /// Checks that `bytes` is exactly one data item valid in the decoder's
    /// mode, as ``decode(_:)-([UInt8])`` would, without building the result:
    /// the same rules and the same error (code, offset and reason) for every
    /// input; a document its quick check decides allocates nothing (non-ASCII
    /// text is checked by the standard library's UTF-8 validator, as in
    /// `decode`). It answers the question fxamacker/cbor's
    /// `Valid` answers, with StrictCBOR's checks (UTF-8, duplicate keys,
    /// simple values, limits).
    public func validate(_ bytes: [UInt8]) throws(CBORError) {
        if let failure = bytes.withUnsafeBufferPointer({ validate($0, input: bytes[...]) }) { throw failure }
    }

    /// ``validate(_:)-([UInt8])`` over a slice; offsets are relative to the slice start.
    public func validate(_ bytes: ArraySlice<UInt8>) throws(CBORError) {
        if let failure = bytes.withUnsafeBufferPointer({ validate($0, input: bytes) }) { throw failure }
    }

    /// The check behind both entry points: the error, or nil. It returns
    /// the error rather than throwing it, so a refusal is thrown once, at
    /// the entry point, instead of through each closure on the way out.
    @inline(__always)
    func validate(_ buffer: UnsafeBufferPointer<UInt8>, input bytes: @autoclosure () -> ArraySlice<UInt8>) -> CBORError? {
        let limit = inputLimit
        guard buffer.count <= limit else {
            let count = buffer.count
            return CBORError(.lengthLimitExceeded, at: limit, "input of \(count) bytes exceeds the limit of \(limit)")
        }
        if case .wellFormed = mode, !tagValidity {
            var refusal = QuickValidation.Refusal.none
            var tape = QuickValidation.NoTape()
            let consumed = QuickValidation.run(
                buffer, maxDepth: limits.maxDepth, maxCount: limits.maxContainerCount,
                tape: &tape, refusal: &refusal)
            if consumed >= 0 {
                guard consumed == buffer.count else {
                    return CBORError(.trailingBytes, at: consumed, detail: .trailing(buffer.count - consumed))
                }
                return nil
            }
            if let error = refusal.error(maxDepth: limits.maxDepth, maxCount: limits.maxContainerCount) { return error }
        }
        return fullPass(buffer, input: bytes())
    }

    /// The structural pass over `buffer` without keeping its tape: the error,
    /// or nil. Never inlined: its three scratch stacks and its registers
    /// would weigh on the quick check's loop.
    @inline(never)
    func fullPass(_ buffer: UnsafeBufferPointer<UInt8>, input bytes: ArraySlice<UInt8>) -> CBORError? {
        StructuralPass.withPass(buffer: buffer, input: bytes, mode: mode, limits: limits, tagValidity: tagValidity) { pass in
            do throws(CBORError) {
                try pass.run()
            } catch {
                return error
            }
            let consumed = pass.position
            guard consumed == bytes.count else {
                return CBORError(.trailingBytes, at: consumed, detail: .trailing(bytes.count - consumed))
            }
            return nil
        }
    }
}

/// The wellFormed check of the documents App Attest and most protocols
/// send, in one function whose state is local variables: definite arrays
/// and maps, tags passed through, definite strings, integers, simple values
/// and floats, map keys that are integers, definite strings or simple
/// values in their shortest form. Anything else (an indefinite length, a
/// key of another kind, a map of more than ``maxLinearPairs`` pairs,
/// deeper nesting or more keys than its scratch holds, and every refusal
/// but the few hostile input reaches first) is undecided, and
/// ``CBORDecoder/validate(_:)-([UInt8])`` runs the full structural pass over
/// the input, which decides it. Where this decides, it decides as that pass
/// does: the same checks in the same order, the same error
/// (`FrozenDecoderDifferentialTests` compares the two on every corpus).
enum QuickValidation {
    /// Pairs a map may have here: the full pass compares up to 16 keys one by
    /// one and switches to a hash set past that.
    static let maxLinearPairs = 16
    /// Open containers and logged keys its scratch holds (1 KiB, which
    /// `withUnsafeTemporaryAllocation` places on the stack; past that it asks
    /// the heap): as deep as the default depth limit, so a document nested
    /// past that limit is refused here.
    static let frameCapacity = CBORLimits.defaultMaxDepth
    static let keyCapacity = 64

    /// A refusal this check makes itself, in plain values: the error is
    /// made once, by the caller (see ``error(maxDepth:maxCount:)``).
    enum Refusal {
        case none
        case headOverInput(start: Int, width: Int, left: Int)
        case lengthOverInput(start: Int, length: UInt64, left: Int)
        case depth(start: Int)
        case countOverLimit(start: Int, map: Bool, count: UInt64)
        case countOverInput(start: Int, map: Bool, count: UInt64, left: Int)
        case duplicateKey(start: Int)

        /// The error the full pass throws for the same input.
        func error(maxDepth: Int, maxCount: Int) -> CBORError? {
            switch self {
            case .none: nil
            case let .headOverInput(start, width, left):
                CBORError(.truncated, at: start, detail: .headOverInput(width: width, left: left))
            case let .lengthOverInput(start, length, left):
                CBORError(.truncated, at: start, detail: .lengthOverInput(length: length, left: left))
            case .depth(let start):
                CBORError(.depthLimitExceeded, at: start, detail: .depth(maxDepth: maxDepth, mode: .wellFormed))
            case let .countOverLimit(start, map, count):
                CBORError(.lengthLimitExceeded, at: start, detail: .countOverLimit(map: map, count: count, limit: maxCount))
            case let .countOverInput(start, map, count, left):
                CBORError(.truncated, at: start, detail: .countOverInput(map: map, count: count, left: left))
            case .duplicateKey(let start):
                CBORError(.duplicateMapKey, at: start, "map key repeated (RFC 8949 §5.6)")
            }
        }
    }

    /// Where the check records the tape entries of the structural items
    /// (``TapeEntry``) it opens and closes: nowhere for `validate`, a
    /// ``ScratchStack`` for `decode`. Specialized and inlined, so `validate`
    /// pays nothing for it.
    protocol TapeSink {
        /// Records the entry of an item with `count` items (pairs of a map,
        /// 1 for a tag) and returns its index, below ``maxEntries``.
        mutating func open(count: Int) -> Int
        /// Completes entry `index`: the item ends at `end`, and the entries
        /// recorded since it are its own.
        mutating func close(_ index: Int, end: Int)
    }

    /// Entries the tape may hold here (the index is packed in 24 bits of a
    /// scratch word): longer inputs, which could have more, go to the full pass.
    static let maxEntries = 1 << 24

    /// No tape: `validate`.
    struct NoTape: TapeSink {
        @inline(__always) func open(count: Int) -> Int { 0 }
        @inline(__always) func close(_ index: Int, end: Int) {}
    }

    /// The tape `decode` keeps.
    struct Tape: TapeSink {
        var entries: ScratchStack<TapeEntry>

        @inline(__always) mutating func open(count: Int) -> Int {
            // Below maxEntries: `decode` takes inputs of at most maxEntries
            // bytes here, and each item with an entry has a head byte of its
            // own and holds another item.
            let index = entries.count
            entries.append(TapeEntry(end: 0, next: 0, count: UInt32(truncatingIfNeeded: count)))
            return index
        }

        @inline(__always) func close(_ index: Int, end: Int) {
            var entry = entries[index]
            entry.end = UInt32(truncatingIfNeeded: end)
            entry.next = UInt32(truncatingIfNeeded: entries.count)
            entries[index] = entry
        }
    }

    /// `decode` by this check: the item and the bytes it took, the error,
    /// or nil when undecided (the full pass decides then).
    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, input bytes: ArraySlice<UInt8>, whole: Bool,
        limits: CBORLimits
    ) -> Result<(storage: CBORStorage, consumed: Int), CBORError>? {
        guard buffer.count <= maxEntries else { return nil }
        return withUnsafeTemporaryAllocation(of: TapeEntry.self, capacity: StructuralPass.stackTapeEntries) { memory in
            var tape = Tape(entries: ScratchStack(memory))
            defer { tape.entries.release() }
            var refusal = Refusal.none
            let consumed = run(
                buffer, maxDepth: limits.maxDepth, maxCount: limits.maxContainerCount,
                tape: &tape, refusal: &refusal)
            guard consumed >= 0 else {
                return refusal.error(maxDepth: limits.maxDepth, maxCount: limits.maxContainerCount).map { .failure($0) }
            }
            guard !whole || consumed == buffer.count else {
                return .failure(CBORError(.trailingBytes, at: consumed, detail: .trailing(buffer.count - consumed)))
            }
            let count = tape.entries.count
            let storage = CBORStorage.make(bytes: bytes[..<(bytes.startIndex + consumed)], tapeCount: count) { destination in
                destination.initialize(from: tape.entries.base, count: count)
            }
            return .success((storage, consumed))
        }
    }

    /// The length of the one data item at the start of `buffer`; -1 when
    /// undecided, or refused (then `refusal` says why).
    @inline(__always)
    static func run<Sink: TapeSink>(
        _ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, maxCount: Int,
        tape: inout Sink, refusal: inout Refusal
    ) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return -1 }
        // Scratch words: the open containers around the innermost one, one
        // word each (items left << 32 | tape entry << 8 | keyBase << 1 |
        // isMap: no container expects more items than the input has bytes,
        // below 2^32, the entry is below 2^24 and keyBase at most 64), then
        // the keys of the open maps, one word each (see the key check below).
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: frameCapacity + keyCapacity) { scratch in
            guard let words = scratch.baseAddress else { return -1 }
            return loop(
                base, end: buffer.count, maxDepth: maxDepth, maxCount: maxCount, words: words,
                tape: &tape, refusal: &refusal)
        }
    }

    @inline(__always)
    static func loop<Sink: TapeSink>(
        _ base: UnsafePointer<UInt8>, end: Int, maxDepth: Int, maxCount: Int,
        words: UnsafeMutablePointer<UInt64>, tape: inout Sink, refusal: inout Refusal
    ) -> Int {
        let keys = words + frameCapacity
        var position = 0
        // The innermost open container: items still expected (a map counts
        // keys and values, so a key is due when this is even), whether it is
        // a map, and where its keys begin. The root expects one item.
        var left = 1
        var isMap = false
        var keyBase = 0
        var keyCount = 0
        var depth = 0
        // The innermost open container's tape entry.
        var entry = 0
        while true {
            guard _fastPath(position < end) else { return -1 }
            let start = position
            let initial = base[position]
            position &+= 1
            // A one-byte integer outside a map (a run of them in an array is
            // the commonest item of all) needs no more than that.
            if initial & 0xDF < 0x18 && !isMap {
            } else if initial &- 0x40 < 0x1A && !isMap {
                // A byte string outside a map whose length is in the initial
                // byte or the one or two after it: its end in as few
                // dependent steps as possible (the next head's offset waits
                // on it; the general path spills the length to memory).
                var length = Int(initial & 0x1F)
                if length >= 24 {
                    let room = end &- position
                    if length == 24 {
                        guard _fastPath(room >= 1) else { return refuse(&refusal, .headOverInput(start: start, width: 1, left: room)) }
                        length = Int(base[position])
                        position &+= 1
                    } else {
                        guard _fastPath(room >= 2) else { return refuse(&refusal, .headOverInput(start: start, width: 2, left: room)) }
                        length = Int(UInt16(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt16.self)))
                        position &+= 2
                    }
                }
                guard _fastPath(length <= end &- position) else {
                    return refuse(&refusal, .lengthOverInput(start: start, length: UInt64(length), left: end &- position))
                }
                position &+= length
            } else {
                let major = initial >> 5
                let info = initial & 0x1F
                var argument = UInt64(info)
                if info >= 24 {
                    let room = end &- position
                    let raw = UnsafeRawPointer(base + position)
                    switch info {
                    case 24:
                        guard _fastPath(room >= 1) else { return refuse(&refusal, .headOverInput(start: start, width: 1, left: room)) }
                        argument = UInt64(base[position])
                        position &+= 1
                    case 25:
                        guard _fastPath(room >= 2) else { return refuse(&refusal, .headOverInput(start: start, width: 2, left: room)) }
                        argument = UInt64(UInt16(bigEndian: raw.loadUnaligned(as: UInt16.self)))
                        position &+= 2
                    case 26:
                        guard _fastPath(room >= 4) else { return refuse(&refusal, .headOverInput(start: start, width: 4, left: room)) }
                        argument = UInt64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
                        position &+= 4
                    case 27:
                        guard _fastPath(room >= 8) else { return refuse(&refusal, .headOverInput(start: start, width: 8, left: room)) }
                        argument = UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
                        position &+= 8
                    default:
                        return -1
                    }
                }
                if major >= 4 {
                    if major == 7 {
                        // Simple values below 32 must use the one-byte form.
                        if info == 24 && argument < 32 { return -1 }
                    } else {
                        if isMap && left & 1 == 0 { return -1 }
                        guard _fastPath(depth < maxDepth) else {
                            refusal = .depth(start: start)
                            return -1
                        }
                        var opened = 1
                        var entryCount = 1
                        let map = major == 5
                        if major != 6 {
                            guard _fastPath(argument <= UInt64(maxCount)) else {
                                refusal = .countOverLimit(start: start, map: map, count: argument)
                                return -1
                            }
                            let remaining = end &- position
                            guard _fastPath(argument <= UInt64(map ? remaining / 2 : remaining)) else {
                                refusal = .countOverInput(start: start, map: map, count: argument, left: remaining)
                                return -1
                            }
                            if map && argument > UInt64(maxLinearPairs) { return -1 }
                            entryCount = Int(argument)
                            opened = map ? entryCount &* 2 : entryCount
                        }
                        if opened > 0 {
                            guard _fastPath(depth < frameCapacity) else { return -1 }
                            let opening = tape.open(count: entryCount)
                            words[depth] = UInt64(left) &<< 32 | UInt64(entry) &<< 8 | UInt64(keyBase) &<< 1 | (isMap ? 1 : 0)
                            depth &+= 1
                            entry = opening
                            left = opened
                            isMap = map
                            keyBase = keyCount
                            continue
                        }
                    }
                } else if major >= 2 {
                    guard _fastPath(argument <= UInt64(end &- position)) else {
                        refusal = .lengthOverInput(start: start, length: argument, left: end &- position)
                        return -1
                    }
                    let length = Int(argument)
                    if major == 3 {
                        let text = UnsafeBufferPointer(start: base + position, count: length)
                        if !StructuralPass.isASCII(text, readable: end &- position),
                            String(validating: text, as: UTF8.self) == nil
                        {
                            return -1
                        }
                    }
                    position &+= length
                }
                if isMap && left & 1 == 0 {
                    // A key: refused when an earlier key of this map has the
                    // same bytes. A key of up to 7 bytes is logged as its
                    // bytes and length in one word, so comparing it with
                    // another short key is one comparison; a longer one as
                    // its offsets, with the top bit set.
                    // A key must be in its shortest form to be compared byte
                    // for byte, and floats are not (their equality is not
                    // their bytes); either is left to the full pass.
                    if info >= 24 {
                        let shortest: Bool
                        switch info {
                        case 24: shortest = major == 7 || argument >= 24
                        case 25: shortest = major != 7 && argument > 0xFF
                        case 26: shortest = major != 7 && argument > 0xFFFF
                        default: shortest = major != 7 && argument > 0xFFFF_FFFF
                        }
                        guard shortest else { return -1 }
                    }
                    let length = position &- start
                    let word: UInt64
                    if length <= 7 {
                        var bytes: UInt64 = 0
                        if end &- start >= 8 {
                            bytes =
                                UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
                                & (UInt64.max &>> (64 &- 8 &* UInt64(length)))
                        } else {
                            for offset in 0..<length { bytes |= UInt64(base[start &+ offset]) &<< (8 &* UInt64(offset)) }
                        }
                        word = bytes | UInt64(length) &<< 56
                        var index = keyBase
                        while index < keyCount {
                            if _slowPath(keys[index] == word) {
                                refusal = .duplicateKey(start: start)
                                return -1
                            }
                            index &+= 1
                        }
                    } else {
                        guard start < 1 &<< 31 else { return -1 }
                        word = 1 &<< 63 | UInt64(start) &<< 32 | UInt64(position)
                        var index = keyBase
                        while index < keyCount {
                            let other = keys[index]
                            let otherStart = Int(truncatingIfNeeded: other &>> 32 & 0x7FFF_FFFF)
                            if other &>> 63 == 1 && Int(truncatingIfNeeded: other & 0xFFFF_FFFF) &- otherStart == length
                                && sameBytes(base + otherStart, base + start, length)
                            {
                                refusal = .duplicateKey(start: start)
                                return -1
                            }
                            index &+= 1
                        }
                    }
                    guard _fastPath(keyCount < keyCapacity) else { return -1 }
                    keys[keyCount] = word
                    keyCount &+= 1
                }
            }
            // The item is finished: hand it to its container, closing each
            // container it completes.
            left &-= 1
            while left == 0 {
                if depth == 0 { return position }
                tape.close(entry, end: position)
                depth &-= 1
                keyCount = keyBase
                let packed = words[depth]
                left = Int(truncatingIfNeeded: packed &>> 32) &- 1
                isMap = packed & 1 == 1
                keyBase = Int(truncatingIfNeeded: packed &>> 1 & 0x7F)
                entry = Int(truncatingIfNeeded: packed &>> 8 & 0xFF_FFFF)
            }
        }
    }

    /// Records `reason` and returns -1, the loop's answer for a refusal.
    @inline(__always)
    static func refuse(_ refusal: inout Refusal, _ reason: Refusal) -> Int {
        refusal = reason
        return -1
    }

    /// Whether the `count` bytes at `a` and at `b` are equal (keys are short:
    /// eight at a time, then one at a time).
    @inline(__always)
    static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }
}
