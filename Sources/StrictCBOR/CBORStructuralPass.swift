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
    /// needed again for that key: see `StructuralPass.keyMemo`).
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
    /// `StructuralPass.keySets`, else -1.
    var keySet: Int {
        get { Int(storedKeySet) }
        set { storedKeySet = Int32(truncatingIfNeeded: newValue) }
    }

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
    /// `mode == .ctap2`, read once (the pass asks per tag and per map key).
    let ctap2: Bool
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
    /// Logged keys in use: `keys[..<keyCount]`. A closed map's keys are
    /// dropped by lowering the count (the slots are reused, not removed).
    var keyCount = 0
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

    init(buffer: UnsafeBufferPointer<UInt8>, input: ArraySlice<UInt8>, mode: CBORMode, limits: CBORLimits,
         tagValidity: Bool = false) {
        self.buffer = buffer
        self.input = input
        self.mode = mode
        self.limits = limits
        self.tagValidity = tagValidity
        self.deterministic = mode.isDeterministic
        self.ctap2 = mode == .ctap2
        self.top = OpenItem(kind: .root, indefinite: false, start: 0, entry: -1, expected: 1)
    }

    /// One allocation each for small documents instead of growing from
    /// empty, made when the first container opens: a document without one
    /// (a scalar, a refusal before any container) allocates nothing.
    mutating func reserve() {
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
            throw CBORError(.reservedAdditionalInfo, at: start,
                            "additional information \(info) is reserved (major type \(major))")
        default:
            if deterministic && (major == 2 || major == 3 || major == 4 || major == 5) {
                let mode = self.mode
                throw CBORError(.indefiniteLengthNotAllowed, at: start,
                                "indefinite length in \(mode.rawValue) mode")
            }
            return nil
        }
        guard remaining >= width else {
            let left = remaining
            throw CBORError(.truncated, at: start, "head needs \(width) argument byte(s), \(left) left")
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
                let (mode, value) = (self.mode, value)
                throw CBORError(.nonMinimalEncoding, at: start,
                                "argument \(value) encoded in \(width) byte(s) in \(mode.rawValue) mode")
            }
        }
        return value
    }

    func notIndefinite(_ major: UInt8, at start: Int) -> CBORError {
        CBORError(.indefiniteLengthNotAllowed, at: start,
                  "major type \(major) cannot have indefinite length (additional information 31)")
    }

    /// Skips `length` payload bytes, checking the length against what remains first.
    @inline(__always)
    mutating func readPayload(length: UInt64, start: Int) throws(CBORError) -> UnsafeBufferPointer<UInt8> {
        guard length <= UInt64(remaining) else {
            let left = remaining
            throw CBORError(.truncated, at: start, "string declares \(length) bytes, \(left) left")
        }
        let n = Int(length)
        // The head was read, so the buffer is not empty and has a base address.
        let slice = UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + position }, count: n)
        position += n
        return slice
    }

    func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(CBORError) {
        // ASCII needs no decoding; anything else goes through the standard validator.
        if !Self.isASCII(bytes) && String(validating: bytes, as: UTF8.self) == nil {
            throw CBORError(.invalidUTF8, at: start, "text string is not valid UTF-8")
        }
    }

    /// Whether every byte is below 0x80 (read eight bytes at a time).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < bytes.count {
            if base[i] >= 0x80 { return false }
            i += 1
        }
        return true
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
                tape[entry] = TapeEntry(end: UInt32(truncatingIfNeeded: position),
                                        next: UInt32(truncatingIfNeeded: tape.count), count: chunks)
                return
            }
            guard initial >> 5 == major, initial & 0x1F != 31 else {
                throw CBORError(.invalidIndefiniteChunk, at: chunkStart,
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
            let (maxDepth, mode) = (limits.maxDepth, self.mode)
            throw CBORError(.depthLimitExceeded, at: start, "nesting deeper than \(maxDepth) in \(mode.rawValue) mode")
        }
    }

    /// Pushes `item` and its tape entry.
    @inline(__always)
    mutating func open(_ item: OpenItem, count: UInt32) {
        if tape.capacity == 0 { reserve() }
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
            let limit = limits.maxContainerCount
            throw CBORError(.lengthLimitExceeded, at: start, "\(Self.declares(map: map, count)), limit is \(limit)")
        }
        // Each item takes at least one byte: a count beyond that is truncated input.
        let capacity = map ? remaining / 2 : remaining
        guard count <= UInt64(capacity) else {
            let left = remaining
            throw CBORError(.truncated, at: start, "\(Self.declares(map: map, count)), only \(left) byte(s) left")
        }
        if count == 0 { return true }
        var item = OpenItem(kind: map ? .map : .array, indefinite: false, start: start, entry: tape.count,
                            expected: Int(count) * (map ? 2 : 1))
        item.keyBase = keyCount
        open(item, count: UInt32(count))
        return false
    }

    /// The start of a refusal's reason for a declared count.
    static func declares(map: Bool, _ count: UInt64) -> String {
        map ? "map declares \(count) pairs" : "array declares \(count) items"
    }

    /// Closes the innermost open item at `position` and returns its start
    /// and tape entry.
    @inline(__always)
    mutating func close() -> (start: Int, entry: Int) {
        let closed = top
        let count = closed.kind == .map ? closed.seen / 2 : closed.seen
        tape[closed.entry] = TapeEntry(end: UInt32(truncatingIfNeeded: position),
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
                throw CBORError(.invalidSimpleValue, at: start,
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
            guard top.kind == .tag || (!top.indefinite && top.seen == top.expected) else { return false }
            if top.kind == .tag && tagValidity {
                try checkTagContent(number: top.tag, tagStart: top.start, content: item.start, entry: item.entry)
            }
            item = close()
        }
    }
}
