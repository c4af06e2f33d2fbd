/// One open array, map or tag during the structural pass.
///
/// Offsets, counts and indices are stored in 32 bits (the input is at most
/// ``CBORLimits/hardMaxInputLength`` bytes, so none exceeds it) and read as
/// Int: the item is 48 bytes instead of 96, and opening or closing a
/// container moves it in registers instead of calling memcpy.
struct OpenItem {
    enum Kind: UInt8 { case root, array, map, tag }

    /// A tag's number (0 for other items).
    var tag: UInt64 = 0
    private var storedStart: UInt32
    private var storedEntry: UInt32
    private var storedExpected: UInt32
    private var storedSeen: UInt32 = 0
    private var previousKeyStart: UInt32 = 0
    private var previousKeyEnd: UInt32 = 0
    private var storedKeyBase: UInt32 = 0
    private var storedKeySet: Int32 = -1
    var kind: Kind
    var indefinite: Bool
    /// Whether the item lies inside a map key (its keys' encodings may be
    /// needed again for that key: see `KeySpill.keyMemo`).
    var insideKey = false

    init(kind: Kind, indefinite: Bool, start: Int, entry: Int, expected: Int) {
        self.kind = kind
        self.indefinite = indefinite
        storedStart = UInt32(truncatingIfNeeded: start)
        storedEntry = UInt32(truncatingIfNeeded: entry)
        storedExpected = UInt32(truncatingIfNeeded: expected)
    }

    /// Offset of the item's head.
    var start: Int { Int(storedStart) }
    /// Its tape entry (meaningless for the root, which is never closed).
    var entry: Int { Int(storedEntry) }
    /// Children expected (a map counts keys and values); unused when indefinite.
    var expected: Int { Int(storedExpected) }
    /// Children finished so far (a map counts keys and values).
    var seen: Int {
        get { Int(storedSeen) }
        set { storedSeen = UInt32(truncatingIfNeeded: newValue) }
    }
    /// Encoded bytes of the previous key (deterministic modes); empty when none.
    var previousKey: Range<Int> {
        get { Int(previousKeyStart)..<Int(previousKeyEnd) }
        set {
            previousKeyStart = UInt32(truncatingIfNeeded: newValue.lowerBound)
            previousKeyEnd = UInt32(truncatingIfNeeded: newValue.upperBound)
        }
    }
    /// wellFormed maps: where this map's keys begin in `StructuralPass.keys`.
    var keyBase: Int {
        get { Int(storedKeyBase) }
        set { storedKeyBase = UInt32(truncatingIfNeeded: newValue) }
    }
    /// wellFormed maps past ``StructuralPass/linearKeyLimit`` keys: index into
    /// `KeySpill.keySets`, else -1.
    var keySet: Int {
        get { Int(storedKeySet) }
        set { storedKeySet = Int32(truncatingIfNeeded: newValue) }
    }

    var expectsKey: Bool { kind == .map && seen & 1 == 0 }
}

/// The rarely used state of wellFormed key checking (keys that are not
/// canonical leaves, maps past ``StructuralPass/linearKeyLimit`` keys),
/// made on first use so the usual pass carries one nil reference for it.
final class KeySpill {
    /// Canonical encodings of the logged keys whose bytes are not canonical.
    var canonicalKeys: [UInt8] = []
    /// Hash sets for wellFormed maps with more keys than `linearKeyLimit`.
    var keySets: [Set<[UInt8]>] = []
    /// Canonical encodings of wellFormed keys already computed, by offset,
    /// for the keys of keys: a key that holds one reuses its bytes instead of
    /// walking it again. The regions never overlap (an entry is dropped when
    /// an enclosing key's encoding takes it in), so they add up to at most
    /// the input's size.
    var keyMemo: [Int: [UInt8]] = [:]
}

/// The structural pass over one buffer: validates and builds the tape.
///
/// Its state is plain values and three ``ScratchStack``s (tape, open items,
/// key log) that start in stack memory (see ``withPass(buffer:input:mode:limits:tagValidity:_:)``):
/// a small document is checked without a heap allocation, and the pass
/// leaves nothing to release but what spilled to the heap.
struct StructuralPass {
    let buffer: UnsafeBufferPointer<UInt8>
    /// The same bytes as `buffer`, for views of finished keys (no copy).
    let input: ArraySlice<UInt8>
    let mode: CBORMode
    let limits: CBORLimits
    /// Check tag content (``CBORDecoder/tagValidity``).
    let tagValidity: Bool
    let deterministic: Bool
    /// `mode == .ctap2`, read once (the pass asks per tag and per map key).
    let ctap2: Bool
    var position = 0
    var tape: ScratchStack<TapeEntry>
    /// The innermost open item; `.root` until the first container opens.
    var top: OpenItem
    /// The open items around `top`.
    var parents: ScratchStack<OpenItem>
    /// The keys of the open wellFormed maps, one map after the other (a
    /// map's keys are dropped when it closes by lowering the count); a small
    /// map's duplicates are found by comparing with each earlier key,
    /// without allocating per key.
    var keys: ScratchStack<LoggedKey>
    /// Logged keys in use.
    var keyCount: Int {
        get { keys.count }
        set { keys.count = newValue }
    }
    /// Canonical key encodings, hash sets and the key memo, once needed.
    var spill: KeySpill?
    /// Keys compared one by one before a map switches to a hash set.
    static let linearKeyLimit = 16
    /// Entries of the stack memory each scratch stack starts in (each under
    /// 1 KiB, which `withUnsafeTemporaryAllocation` places on the stack
    /// without asking the thread for room): deeper or larger documents
    /// spill to the heap.
    static let stackTapeEntries = 64
    static let stackOpenItems = 16
    static let stackLoggedKeys = 48

    init(
        buffer: UnsafeBufferPointer<UInt8>, input: ArraySlice<UInt8>, mode: CBORMode, limits: CBORLimits,
        tagValidity: Bool, tape: UnsafeMutableBufferPointer<TapeEntry>,
        parents: UnsafeMutableBufferPointer<OpenItem>, keys: UnsafeMutableBufferPointer<LoggedKey>
    ) {
        self.buffer = buffer
        self.input = input
        self.mode = mode
        self.limits = limits
        self.tagValidity = tagValidity
        self.deterministic = mode.isDeterministic
        self.ctap2 = mode.isCTAP2
        self.top = OpenItem(kind: .root, indefinite: false, start: 0, entry: -1, expected: 1)
        self.tape = ScratchStack(tape)
        self.parents = ScratchStack(parents)
        self.keys = ScratchStack(keys)
    }

    /// Runs `body` with a pass over `buffer` whose scratch stacks start in
    /// stack memory, and frees what spilled to the heap afterwards.
    @inline(__always)
    static func withPass<R>(
        buffer: UnsafeBufferPointer<UInt8>, input: ArraySlice<UInt8>, mode: CBORMode,
        limits: CBORLimits, tagValidity: Bool, _ body: (inout StructuralPass) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: TapeEntry.self, capacity: stackTapeEntries) { tape in
            withUnsafeTemporaryAllocation(of: OpenItem.self, capacity: stackOpenItems) { parents in
                withUnsafeTemporaryAllocation(of: LoggedKey.self, capacity: stackLoggedKeys) { keys in
                    var pass = StructuralPass(
                        buffer: buffer, input: input, mode: mode, limits: limits,
                        tagValidity: tagValidity, tape: tape, parents: parents, keys: keys)
                    defer {
                        pass.tape.release()
                        pass.parents.release()
                        pass.keys.release()
                    }
                    return body(&pass)
                }
            }
        }
    }

    /// The storage a decoded document keeps: `bytes` and the tape's
    /// entries `entries`, whose tape indices are rebased to start at 0.
    func storage(bytes: ArraySlice<UInt8>, entries: Range<Int>) -> CBORStorage {
        CBORStorage.make(bytes: bytes, tapeCount: entries.count) { destination in
            guard entries.lowerBound > 0 else { return tape.copy(entries, to: destination) }
            let base = UInt32(truncatingIfNeeded: entries.lowerBound)
            tape.copy(entries, to: destination) { TapeEntry(end: $0.end, next: $0.next &- base, count: $0.count) }
        }
    }

    /// The key spill, made on first use.
    mutating func keySpill() -> KeySpill {
        if let spill { return spill }
        let made = KeySpill()
        spill = made
        return made
    }

    var remaining: Int { buffer.count - position }

    mutating func run() throws(CBORError) {
        while true {
            let start = position
            guard position < buffer.count else {
                throw CBORError(.truncated, at: start, "input ends where a data item should start")
            }
            let initial = buffer[position]
            // Fast paths (one copy of `finish` for both): an integer whose
            // value is in the initial byte, and a definite string the general
            // path would accept as it is (see `acceptedStringEnd`); anything
            // else takes that path from the same byte, which reports what is wrong.
            let leafEnd: Int
            if initial < 0x38 && initial & 0x1F < 24 {
                leafEnd = start + 1
            } else if initial &- 0x40 < 0x40, let end = acceptedStringEnd(initial: initial, at: start) {
                leafEnd = end
            } else {
                leafEnd = 0
            }
            if leafEnd > 0 {
                position = leafEnd
                if try finish(itemAt: start, entry: tape.count) { return }
                continue
            }
            if initial == 0xFF {
                if try closeIndefinite(at: start) { return }
                continue
            }
            let entry = tape.count
            if try readItem(initial: initial, start: start), try finish(itemAt: start, entry: entry) { return }
        }
    }

    /// Where the definite byte or text string whose head starts at `start`
    /// ends, when its length is in the initial byte or the one or two bytes
    /// after it, in the shortest form where the mode asks for it, with the
    /// whole payload in the input and, for text, ASCII; nil otherwise. What
    /// this accepts, `readItem` accepts with the same end: the fast path
    /// skips its steps, never its checks.
    @inline(__always)
    func acceptedStringEnd(initial: UInt8, at start: Int) -> Int? {
        let info = initial & 0x1F
        var payloadStart = start + 1
        let length: Int
        switch info {
        case 0..<24:
            length = Int(info)
        case 24:
            guard buffer.count - start >= 2 else { return nil }
            length = Int(buffer[start + 1])
            guard !deterministic || length >= 24 else { return nil }
            payloadStart += 1
        case 25:
            guard buffer.count - start >= 3 else { return nil }
            length = Int(buffer[start + 1]) << 8 | Int(buffer[start + 2])
            guard !deterministic || length > 0xFF else { return nil }
            payloadStart += 2
        default:
            return nil
        }
        guard length <= buffer.count - payloadStart else { return nil }
        if initial >= 0x60 {
            let text = UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + payloadStart }, count: length)
            guard Self.isASCII(text, readable: buffer.count - payloadStart) else { return nil }
        }
        return payloadStart + length
    }

    /// Reads one item that does not start with a break; returns true when it
    /// is finished (a leaf), false when it opened a container or tag.
    @inline(__always)
    mutating func readItem(initial: UInt8, start: Int) throws(CBORError) -> Bool {
        position += 1
        let major = initial >> 5
        let info = initial & 0x1F
        // Well-formedness of the initial byte (info 28–31) comes first, then
        // the mode's ban on tags, then the argument's shortest form.
        if major == 6 && info < 28 && ctap2 {
            throw CBORError(.tagNotAllowed, at: start, "tags are not allowed in ctap2 mode")
        }
        let argument = try readArgument(info: info, major: major, start: start)

        switch major {
        case 0, 1:
            guard argument != nil else { throw notIndefinite(major, at: start) }
            return true
        case 2, 3:
            guard let length = argument else {
                try readChunks(major: major, start: start)
                return true
            }
            let payload = try readPayload(length: length, start: start)
            if major == 3 { try checkUTF8(payload, at: start) }
            return true
        case 4, 5:
            return try openContainer(map: major == 5, count: argument, start: start)
        case 6:
            guard let number = argument else { throw notIndefinite(major, at: start) }
            try checkDepth(at: start)
            var item = OpenItem(kind: .tag, indefinite: false, start: start, entry: tape.count, expected: 1)
            item.tag = number
            open(item, count: 1)
            return false
        default:
            try checkSimpleOrFloat(info: info, argument: argument ?? 0, start: start)
            return true
        }
    }

    /// Reads the argument of a head. nil means indefinite length (info 31).
    @inline(__always)
    mutating func readArgument(info: UInt8, major: UInt8, start: Int) throws(CBORError) -> UInt64? {
        let width: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        case 28, 29, 30:
            throw CBORError(
                .reservedAdditionalInfo, at: start,
                "additional information \(info) is reserved (major type \(major))")
        default:
            if deterministic && (major == 2 || major == 3 || major == 4 || major == 5) {
                let mode = self.mode
                throw CBORError(
                    .indefiniteLengthNotAllowed, at: start,
                    "indefinite length in \(mode.rawValue) mode")
            }
            return nil
        }
        guard remaining >= width else {
            throw CBORError(.truncated, at: start, detail: .headOverInput(width: width, left: remaining))
        }
        let value = Self.bigEndian(buffer, at: position, width: width)
        position += width
        // Floats (major 7, info 25–27) are checked for shortest form separately,
        // and major 7 info 24 carries a simple value, whose own rule applies.
        if deterministic && major != 7 {
            let minimal: Bool
            switch width {
            case 1: minimal = value >= 24
            case 2: minimal = value > 0xFF
            case 4: minimal = value > 0xFFFF
            default: minimal = value > 0xFFFF_FFFF
            }
            if !minimal {
                let (mode, value) = (self.mode, value)
                throw CBORError(
                    .nonMinimalEncoding, at: start,
                    "argument \(value) encoded in \(width) byte(s) in \(mode.rawValue) mode")
            }
        }
        return value
    }

    /// The `width` (1, 2, 4 or 8) bytes at `offset` as a big-endian number,
    /// read without a loop (lengths of strings take this path once each).
    @inline(__always)
    static func bigEndian(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, width: Int) -> UInt64 {
        func byte(_ i: Int) -> UInt64 { UInt64(buffer[offset + i]) }
        switch width {
        case 1: return byte(0)
        case 2: return byte(0) << 8 | byte(1)
        case 4: return byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3)
        default:
            return byte(0) << 56 | byte(1) << 48 | byte(2) << 40 | byte(3) << 32
                | byte(4) << 24 | byte(5) << 16 | byte(6) << 8 | byte(7)
        }
    }

    func notIndefinite(_ major: UInt8, at start: Int) -> CBORError {
        CBORError(
            .indefiniteLengthNotAllowed, at: start,
            "major type \(major) cannot have indefinite length (additional information 31)")
    }

    /// Skips `length` payload bytes, checking the length against what remains first.
    @inline(__always)
    mutating func readPayload(length: UInt64, start: Int) throws(CBORError) -> UnsafeBufferPointer<UInt8> {
        guard length <= UInt64(remaining) else {
            throw CBORError(.truncated, at: start, detail: .lengthOverInput(length: length, left: remaining))
        }
        let n = Int(length)
        // The head was read, so the buffer is not empty and has a base address.
        let slice = UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + position }, count: n)
        position += n
        return slice
    }

    @inline(__always)
    func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(CBORError) {
        // ASCII needs no decoding; anything else goes through the standard validator.
        if !Self.isASCII(bytes) { try Self.checkNonASCII(bytes, at: start) }
    }

    static func checkNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(CBORError) {
        if String(validating: bytes, as: UTF8.self) == nil {
            throw CBORError(.invalidUTF8, at: start, "text string is not valid UTF-8")
        }
    }

    /// Whether every byte is below 0x80, read eight bytes at a time (the
    /// last eight overlapping the ones before). `readable` is how many bytes
    /// from the start may be read (the rest of the input): a string shorter
    /// than eight with that much room is checked in one masked load.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int = 0) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        if count < 8 {
            guard readable < 8 else {
                let word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                let own: UInt64 = count == 0 ? 0 : UInt64.max >> (64 - 8 * count)
                return word & own & high == 0
            }
            var i = 0
            while i < count {
                if base[i] >= 0x80 { return false }
                i += 1
            }
            return true
        }
        var i = 0
        while i + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & high != 0 { return false }
            i += 8
        }
        return i == count || raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) & high == 0
    }

    /// Reads the chunks of an indefinite-length string up to its break and
    /// records the string on the tape.
    mutating func readChunks(major: UInt8, start: Int) throws(CBORError) {
        let entry = tape.count
        tape.append(TapeEntry(end: 0, next: 0, count: 0))
        var chunks: UInt32 = 0
        while true {
            let chunkStart = position
            guard remaining > 0 else {
                throw CBORError(.truncated, at: chunkStart, "indefinite-length string not closed by a break")
            }
            let initial = buffer[position]
            if initial == 0xFF {
                position += 1
                tape[entry] = TapeEntry(
                    end: UInt32(truncatingIfNeeded: position),
                    next: UInt32(truncatingIfNeeded: tape.count), count: chunks)
                return
            }
            guard initial >> 5 == major, initial & 0x1F != 31 else {
                throw CBORError(
                    .invalidIndefiniteChunk, at: chunkStart,
                    "chunk of an indefinite-length string must be a definite string of major type \(major)")
            }
            position += 1
            guard let length = try readArgument(info: initial & 0x1F, major: major, start: chunkStart) else {
                throw CBORError(.invalidIndefiniteChunk, at: chunkStart, "nested indefinite-length chunk")
            }
            let payload = try readPayload(length: length, start: chunkStart)
            if major == 3 { try checkUTF8(payload, at: chunkStart) }
            chunks += 1
        }
    }

    /// Open arrays, maps and tags (the root sentinel is not one).
    var depth: Int { parents.count }

    func checkDepth(at start: Int) throws(CBORError) {
        guard depth < limits.maxDepth else {
            throw CBORError(.depthLimitExceeded, at: start, detail: .depth(maxDepth: limits.maxDepth, mode: mode))
        }
    }

    /// Pushes `item` and its tape entry.
    @inline(__always)
    mutating func open(_ item: OpenItem, count: UInt32) {
        tape.append(TapeEntry(end: 0, next: 0, count: count))
        var item = item
        item.insideKey = top.insideKey || top.expectsKey
        parents.append(top)
        top = item
    }

    /// Opens an array or map; returns true when it is empty (a leaf, already finished).
    @inline(__always)
    mutating func openContainer(map: Bool, count: UInt64?, start: Int) throws(CBORError) -> Bool {
        try checkDepth(at: start)
        guard let count else {
            var item = OpenItem(kind: map ? .map : .array, indefinite: true, start: start, entry: tape.count, expected: 0)
            item.keyBase = keyCount
            open(item, count: 0)
            return false
        }
        guard count <= UInt64(limits.maxContainerCount) else {
            throw CBORError(
                .lengthLimitExceeded, at: start,
                detail: .countOverLimit(map: map, count: count, limit: limits.maxContainerCount))
        }
        // Each item takes at least one byte: a count beyond that is truncated input.
        let capacity = map ? remaining / 2 : remaining
        guard count <= UInt64(capacity) else {
            throw CBORError(.truncated, at: start, detail: .countOverInput(map: map, count: count, left: remaining))
        }
        if count == 0 { return true }
        var item = OpenItem(
            kind: map ? .map : .array, indefinite: false, start: start, entry: tape.count,
            expected: Int(count) * (map ? 2 : 1))
        item.keyBase = keyCount
        open(item, count: UInt32(count))
        return false
    }

    /// Closes the innermost open item at `position` and returns its start
    /// and tape entry.
    @inline(__always)
    mutating func close() -> (start: Int, entry: Int) {
        let closed = top
        let count = closed.kind == .map ? closed.seen / 2 : closed.seen
        tape[closed.entry] = TapeEntry(
            end: UInt32(truncatingIfNeeded: position),
            next: UInt32(truncatingIfNeeded: tape.count),
            count: UInt32(truncatingIfNeeded: count))
        if closed.kind == .map && !deterministic { dropKeys(of: closed) }
        top = parents.removeLast()
        return (closed.start, closed.entry)
    }

    mutating func closeIndefinite(at start: Int) throws(CBORError) -> Bool {
        guard top.kind != .root, top.indefinite else {
            throw CBORError(.unexpectedBreak, at: start, "break outside an indefinite-length array or map")
        }
        if top.kind == .map && top.seen & 1 == 1 {
            throw CBORError(.unexpectedBreak, at: start, "break where a map value is expected")
        }
        position += 1
        let closed = close()
        return try finish(itemAt: closed.start, entry: closed.entry)
    }

    func checkSimpleOrFloat(info: UInt8, argument: UInt64, start: Int) throws(CBORError) {
        switch info {
        case 24:
            guard argument >= 32 else {
                throw CBORError(
                    .invalidSimpleValue, at: start,
                    "simple value \(argument) must use the one-byte form (RFC 8949 §3.3)")
            }
        case 26 where deterministic:
            if CBORFloat.exactHalf(CBORFloat.double(fromSingle: UInt32(truncatingIfNeeded: argument))) != nil {
                throw CBORError(.nonMinimalEncoding, at: start, "single-precision float fits in half precision")
            }
        case 27 where deterministic:
            let value = Double(bitPattern: argument)
            if CBORFloat.exactHalf(value) != nil || CBORFloat.exactSingle(value) != nil {
                throw CBORError(.nonMinimalEncoding, at: start, "double-precision float fits in a shorter form")
            }
        default:
            break
        }
    }

    /// Hands the item that started at `start` and ends at `position` to the
    /// open items, closing every one it completes; true once the top-level
    /// item is finished. `entry` is where the item's tape entries begin
    /// (every entry from there on is the item's own).
    @inline(__always)
    mutating func finish(itemAt start: Int, entry: Int) throws(CBORError) -> Bool {
        var item = (start: start, entry: entry)
        while true {
            switch top.kind {
            case .root:
                return true
            case .map where top.seen & 1 == 0:
                try checkKey(item.start..<position, firstEntry: item.entry)
            default:
                break
            }
            top.seen += 1
            // A tag expects one item and an indefinite container 0, which
            // `seen` (1 or more here, and below 2^32 as the input is) never
            // equals: one comparison decides for every kind.
            guard top.seen == top.expected else { return false }
            if top.kind == .tag && tagValidity {
                try checkTagContent(number: top.tag, tagStart: top.start, content: item.start, entry: item.entry)
            }
            item = close()
        }
    }
}
