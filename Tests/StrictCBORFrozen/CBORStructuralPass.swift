/// One open array, map or tag during the structural pass.
struct OpenItem {
    enum Kind: UInt8 { case root, array, map, tag }

    var kind: Kind
    var indefinite: Bool
    /// Offset of the item's head.
    var start: Int
    /// Its tape entry.
    var entry: Int
    /// Children expected (a map counts keys and values); unused when indefinite.
    var expected: Int
    /// A tag's number (0 for other items).
    var tag: UInt64 = 0
    /// Whether the item lies inside a map key (its keys' encodings may be
    /// needed again for that key: see `StructuralPass.keyMemo`).
    var insideKey = false
    /// Children finished so far (a map counts keys and values).
    var seen = 0
    /// Encoded bytes of the previous key (deterministic modes); empty when none.
    var previousKey: Range<Int> = 0..<0
    /// wellFormed maps: where this map's keys begin in `StructuralPass.keys`.
    var keyBase = 0
    /// wellFormed maps past ``StructuralPass/linearKeyLimit`` keys: index into
    /// `StructuralPass.keySets`, else -1.
    var keySet = -1

    var expectsKey: Bool { kind == .map && seen & 1 == 0 }
}

/// The structural pass over one buffer: validates and builds the tape.
struct StructuralPass {
    let buffer: UnsafeBufferPointer<UInt8>
    /// The same bytes as `buffer`, for views of finished keys (no copy).
    let input: ArraySlice<UInt8>
    let mode: CBORMode
    let limits: CBORLimits
    /// Check tag content (``CBORDecoder/tagValidity``).
    let tagValidity: Bool
    let deterministic: Bool
    var position = 0
    var tape: [TapeEntry] = []
    /// The innermost open item; `.root` until the first container opens.
    var top: OpenItem
    /// The open items around `top`.
    var parents: [OpenItem] = []
    /// The keys of the open wellFormed maps, one map after the other (a
    /// map's keys are dropped when it closes); a small map's duplicates are
    /// found by comparing with each earlier key, without allocating per key.
    var keys: [LoggedKey] = []
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
    /// Keys compared one by one before a map switches to a hash set.
    static let linearKeyLimit = 16

    init(
        buffer: UnsafeBufferPointer<UInt8>, input: ArraySlice<UInt8>, mode: CBORMode, limits: CBORLimits,
        tagValidity: Bool = false
    ) {
        self.buffer = buffer
        self.input = input
        self.mode = mode
        self.limits = limits
        self.tagValidity = tagValidity
        self.deterministic = mode.isDeterministic
        self.top = OpenItem(kind: .root, indefinite: false, start: 0, entry: -1, expected: 1)
        // One allocation each for small documents instead of growing from empty.
        tape.reserveCapacity(min(buffer.count / 2, 16))
        parents.reserveCapacity(min(limits.maxDepth, 8))
        if !deterministic { keys.reserveCapacity(8) }
    }

    var remaining: Int { buffer.count - position }

    mutating func run() throws(CBORError) {
        while true {
            let start = position
            guard position < buffer.count else {
                throw CBORError(.truncated, at: start, "input ends where a data item should start")
            }
            let initial = buffer[position]
            // Fast path: an integer whose value is in the initial byte.
            if initial < 0x38 && initial & 0x1F < 24 {
                position += 1
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

    /// Reads one item that does not start with a break; returns true when it
    /// is finished (a leaf), false when it opened a container or tag.
    mutating func readItem(initial: UInt8, start: Int) throws(CBORError) -> Bool {
        position += 1
        let major = initial >> 5
        let info = initial & 0x1F
        // Well-formedness of the initial byte (info 28–31) comes first, then
        // the mode's ban on tags, then the argument's shortest form.
        if major == 6 && info < 28 && mode == .ctap2 {
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
                throw CBORError(
                    .indefiniteLengthNotAllowed, at: start,
                    "indefinite length in \(mode.rawValue) mode")
            }
            return nil
        }
        guard remaining >= width else {
            throw CBORError(.truncated, at: start, "head needs \(width) argument byte(s), \(remaining) left")
        }
        var value: UInt64 = 0
        for i in 0..<width { value = (value << 8) | UInt64(buffer[position + i]) }
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
                throw CBORError(
                    .nonMinimalEncoding, at: start,
                    "argument \(value) encoded in \(width) byte(s) in \(mode.rawValue) mode")
            }
        }
        return value
    }

    func notIndefinite(_ major: UInt8, at start: Int) -> CBORError {
        CBORError(
            .indefiniteLengthNotAllowed, at: start,
            "major type \(major) cannot have indefinite length (additional information 31)")
    }

    /// Skips `length` payload bytes, checking the length against what remains first.
    mutating func readPayload(length: UInt64, start: Int) throws(CBORError) -> UnsafeBufferPointer<UInt8> {
        guard length <= UInt64(remaining) else {
            throw CBORError(.truncated, at: start, "string declares \(length) bytes, \(remaining) left")
        }
        let n = Int(length)
        let slice = UnsafeBufferPointer(rebasing: buffer[position..<(position + n)])
        position += n
        return slice
    }

    func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(CBORError) {
        // ASCII needs no decoding; anything else goes through the standard validator.
        for byte in bytes where byte >= 0x80 {
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw CBORError(.invalidUTF8, at: start, "text string is not valid UTF-8")
            }
            return
        }
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
            throw CBORError(
                .depthLimitExceeded, at: start,
                "nesting deeper than \(limits.maxDepth) in \(mode.rawValue) mode")
        }
    }

    /// Pushes `item` and its tape entry.
    mutating func open(_ item: OpenItem, count: UInt32) {
        tape.append(TapeEntry(end: 0, next: 0, count: count))
        var item = item
        item.insideKey = top.insideKey || top.expectsKey
        parents.append(top)
        top = item
    }

    /// Opens an array or map; returns true when it is empty (a leaf, already finished).
    mutating func openContainer(map: Bool, count: UInt64?, start: Int) throws(CBORError) -> Bool {
        try checkDepth(at: start)
        guard let count else {
            var item = OpenItem(kind: map ? .map : .array, indefinite: true, start: start, entry: tape.count, expected: 0)
            item.keyBase = keys.count
            open(item, count: 0)
            return false
        }
        func noun() -> String { map ? "map declares \(count) pairs" : "array declares \(count) items" }
        guard count <= UInt64(limits.maxContainerCount) else {
            throw CBORError(.lengthLimitExceeded, at: start, "\(noun()), limit is \(limits.maxContainerCount)")
        }
        // Each item takes at least one byte: a count beyond that is truncated input.
        let capacity = map ? remaining / 2 : remaining
        guard count <= UInt64(capacity) else {
            throw CBORError(.truncated, at: start, "\(noun()), only \(remaining) byte(s) left")
        }
        if count == 0 { return true }
        var item = OpenItem(
            kind: map ? .map : .array, indefinite: false, start: start, entry: tape.count,
            expected: Int(count) * (map ? 2 : 1))
        item.keyBase = keys.count
        open(item, count: UInt32(count))
        return false
    }

    /// Closes the innermost open item at `position` and returns its start
    /// and tape entry.
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
            guard top.kind == .tag || (!top.indefinite && top.seen == top.expected) else { return false }
            if top.kind == .tag && tagValidity {
                try checkTagContent(number: top.tag, tagStart: top.start, content: item.start, entry: item.entry)
            }
            item = close()
        }
    }
}
