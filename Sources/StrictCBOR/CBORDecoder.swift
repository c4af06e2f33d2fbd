/// Strict, bounded, non-recursive CBOR decoder (spec/cbor.md).
///
/// The decoder walks the input once with an explicit stack of open
/// containers, so hostile nesting costs heap, not call stack, and is cut off
/// at ``CBORLimits/maxDepth``. Every declared length or count is compared with
/// the bytes that remain before anything is allocated from it.
public struct CBORDecoder: Sendable {
    public var mode: CBORMode
    public var limits: CBORLimits

    public init(mode: CBORMode = .wellFormed, limits: CBORLimits? = nil) {
        self.mode = mode
        self.limits = limits ?? CBORLimits.defaults(for: mode)
    }

    /// Decodes the first data item of `bytes` and reports how many bytes it
    /// took; bytes after it are left to the caller (authenticator data carries
    /// a COSE key followed by extensions).
    public func decodeFirst(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        try decodeFirst(bytes[...])
    }

    /// ``decodeFirst(_:)-([UInt8])`` over a slice; offsets are relative to the slice start.
    public func decodeFirst(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        guard bytes.count <= limits.maxInputLength else {
            throw CBORError(.lengthLimitExceeded, at: limits.maxInputLength,
                            "input of \(bytes.count) bytes exceeds the limit of \(limits.maxInputLength)")
        }
        let result: Result<(CBORValue, Int), CBORError> = bytes.withUnsafeBufferPointer { buffer in
            var pass = DecodingPass(buffer: buffer, mode: mode, limits: limits)
            do throws(CBORError) {
                let value = try pass.run()
                return .success((value, pass.position))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes exactly one data item; anything after it is `trailingBytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        try decode(bytes[...])
    }

    /// ``decode(_:)-([UInt8])`` over a slice.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodeFirst(bytes)
        guard consumed == bytes.count else {
            throw CBORError(.trailingBytes, at: consumed,
                            "\(bytes.count - consumed) byte(s) after the first data item")
        }
        return value
    }
}

/// One open array, map or tag on the decoder's explicit stack.
private struct Frame {
    enum Kind { case array, map, tag(UInt64) }

    var kind: Kind
    var indefinite: Bool
    /// Items still expected (a map counts keys and values separately).
    var remaining: Int
    /// Array items, or alternating keys and values of a map.
    var items: [CBORValue] = []
    /// Offset where the current child item began (map keys need it).
    var childStart = 0
    /// Encoded bytes of the previous key (deterministic modes).
    var previousKey: Range<Int>? = nil
    /// Canonical encodings of the keys seen so far (wellFormed mode).
    var seenKeys: Set<[UInt8]> = []

    var isMap: Bool { if case .map = kind { return true } else { return false } }
}

/// The state of one decoding run over a buffer.
private struct DecodingPass {
    let buffer: UnsafeBufferPointer<UInt8>
    let mode: CBORMode
    let limits: CBORLimits
    var position = 0
    var stack: [Frame] = []

    init(buffer: UnsafeBufferPointer<UInt8>, mode: CBORMode, limits: CBORLimits) {
        self.buffer = buffer
        self.mode = mode
        self.limits = limits
    }

    var remaining: Int { buffer.count - position }

    mutating func run() throws(CBORError) -> CBORValue {
        while true {
            if !stack.isEmpty { stack[stack.count - 1].childStart = position }
            if let value = try readItem(), let done = try complete(value) {
                return done
            }
        }
    }

    /// Reads one head; returns a finished value, or nil when it opened a
    /// container (or closed nothing yet).
    mutating func readItem() throws(CBORError) -> CBORValue? {
        let start = position
        guard remaining > 0 else {
            throw CBORError(.truncated, at: start, "input ends where a data item should start")
        }
        let initial = buffer[position]
        position += 1
        let major = initial >> 5
        let info = initial & 0x1F

        if initial == 0xFF { return try closeIndefinite(at: start) }
        // Well-formedness of the initial byte (info 28–31) comes first, then
        // the mode's ban on tags, then the argument's shortest form.
        if major == 6 && info < 28 && mode == .ctap2 {
            throw CBORError(.tagNotAllowed, at: start, "tags are not allowed in ctap2 mode")
        }

        let argument = try readArgument(info: info, major: major, start: start)

        switch major {
        case 0:
            guard let n = argument else { throw notIndefinite(major, at: start) }
            return .unsigned(n)
        case 1:
            guard let n = argument else { throw notIndefinite(major, at: start) }
            return .negative(n)
        case 2:
            guard let n = argument else { return .indefiniteBytes(try readChunks(major: 2, start: start).bytes) }
            return .bytes(Array(try readPayload(length: n, start: start)))
        case 3:
            guard let n = argument else { return .indefiniteText(try readChunks(major: 3, start: start).texts) }
            return .text(try utf8(try readPayload(length: n, start: start), at: start))
        case 4, 5:
            return try openContainer(map: major == 5, count: argument, start: start)
        case 6:
            guard let n = argument else { throw notIndefinite(major, at: start) }
            try checkDepth(at: start)
            stack.append(Frame(kind: .tag(n), indefinite: false, remaining: 1))
            return nil
        default:
            return try simpleOrFloat(info: info, argument: argument ?? 0, start: start)
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
            throw CBORError(.reservedAdditionalInfo, at: start,
                            "additional information \(info) is reserved (major type \(major))")
        default:
            if mode.isDeterministic && (major == 2 || major == 3 || major == 4 || major == 5) {
                throw CBORError(.indefiniteLengthNotAllowed, at: start,
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
        // Floats (major 7, info 25–27) are checked for shortest form separately.
        if mode.isDeterministic && !(major == 7 && info >= 25) {
            let minimal: Bool
            switch width {
            case 1: minimal = value >= 24
            case 2: minimal = value > 0xFF
            case 4: minimal = value > 0xFFFF
            default: minimal = value > 0xFFFF_FFFF
            }
            // Major 7 info 24 carries a simple value, whose own rule applies.
            if !minimal && !(major == 7) {
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

    /// Reads `length` payload bytes, checking the length against what remains first.
    mutating func readPayload(length: UInt64, start: Int) throws(CBORError) -> UnsafeBufferPointer<UInt8> {
        guard length <= UInt64(remaining) else {
            throw CBORError(.truncated, at: start, "string declares \(length) bytes, \(remaining) left")
        }
        let n = Int(length)
        let slice = UnsafeBufferPointer(rebasing: buffer[position..<(position + n)])
        position += n
        return slice
    }

    func utf8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(CBORError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CBORError(.invalidUTF8, at: start, "text string is not valid UTF-8")
        }
        return text
    }

    /// Reads the chunks of an indefinite-length string up to its break.
    mutating func readChunks(major: UInt8, start: Int) throws(CBORError) -> (bytes: [[UInt8]], texts: [String]) {
        var bytes: [[UInt8]] = []
        var texts: [String] = []
        while true {
            let chunkStart = position
            guard remaining > 0 else {
                throw CBORError(.truncated, at: chunkStart, "indefinite-length string not closed by a break")
            }
            let initial = buffer[position]
            if initial == 0xFF {
                position += 1
                return (bytes, texts)
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
            if major == 2 {
                bytes.append(Array(payload))
            } else {
                texts.append(try utf8(payload, at: chunkStart))
            }
        }
    }

    mutating func checkDepth(at start: Int) throws(CBORError) {
        guard stack.count < limits.maxDepth else {
            throw CBORError(.depthLimitExceeded, at: start,
                            "nesting deeper than \(limits.maxDepth) in \(mode.rawValue) mode")
        }
    }

    mutating func openContainer(map: Bool, count: UInt64?, start: Int) throws(CBORError) -> CBORValue? {
        try checkDepth(at: start)
        guard let count else {
            stack.append(Frame(kind: map ? .map : .array, indefinite: true, remaining: 0))
            return nil
        }
        let noun = map ? "map declares \(count) pairs" : "array declares \(count) items"
        guard count <= UInt64(limits.maxContainerCount) else {
            throw CBORError(.lengthLimitExceeded, at: start, "\(noun), limit is \(limits.maxContainerCount)")
        }
        // Each item takes at least one byte: a count beyond that is truncated input.
        let capacity = map ? remaining / 2 : remaining
        guard count <= UInt64(capacity) else {
            throw CBORError(.truncated, at: start, "\(noun), only \(remaining) byte(s) left")
        }
        if count == 0 { return map ? .map([], indefinite: false) : .array([], indefinite: false) }
        let items = Int(count) * (map ? 2 : 1)
        var frame = Frame(kind: map ? .map : .array, indefinite: false, remaining: items)
        frame.items.reserveCapacity(items)
        stack.append(frame)
        return nil
    }

    mutating func closeIndefinite(at start: Int) throws(CBORError) -> CBORValue? {
        guard let top = stack.last, top.indefinite else {
            throw CBORError(.unexpectedBreak, at: start, "break outside an indefinite-length array or map")
        }
        if top.isMap && top.items.count % 2 == 1 {
            throw CBORError(.unexpectedBreak, at: start, "break where a map value is expected")
        }
        stack.removeLast()
        return Self.finish(top)
    }

    static func finish(_ frame: Frame) -> CBORValue {
        switch frame.kind {
        case .array:
            return .array(frame.items, indefinite: frame.indefinite)
        case .map:
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(frame.items.count / 2)
            var i = 0
            while i + 1 < frame.items.count {
                entries.append(CBORMapEntry(frame.items[i], frame.items[i + 1]))
                i += 2
            }
            return .map(entries, indefinite: frame.indefinite)
        case .tag(let n):
            return .tag(n, frame.items.first ?? .null)
        }
    }

    func simpleOrFloat(info: UInt8, argument: UInt64, start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            guard argument >= 32 else {
                throw CBORError(.invalidSimpleValue, at: start,
                                "simple value \(argument) must use the one-byte form (RFC 8949 §3.3)")
            }
            return .simple(UInt8(truncatingIfNeeded: argument))
        case 25:
            return .float(CBORFloat.double(fromHalf: UInt16(truncatingIfNeeded: argument)))
        case 26:
            let value = CBORFloat.double(fromSingle: UInt32(truncatingIfNeeded: argument))
            if mode.isDeterministic && CBORFloat.exactHalf(value) != nil {
                throw CBORError(.nonMinimalEncoding, at: start, "single-precision float fits in half precision")
            }
            return .float(value)
        case 27:
            let value = Double(bitPattern: argument)
            if mode.isDeterministic && (CBORFloat.exactHalf(value) != nil || CBORFloat.exactSingle(value) != nil) {
                throw CBORError(.nonMinimalEncoding, at: start, "double-precision float fits in a shorter form")
            }
            return .float(value)
        default:
            return .simple(info)
        }
    }

    /// Hands a finished value to the open containers, closing every one that
    /// becomes complete; returns the top-level value once the stack is empty.
    mutating func complete(_ finished: CBORValue) throws(CBORError) -> CBORValue? {
        var value = finished
        while true {
            guard !stack.isEmpty else { return value }
            let top = stack.count - 1
            if stack[top].isMap && stack[top].items.count % 2 == 0 {
                try checkKey(value, frame: top)
            }
            stack[top].items.append(value)
            if case .tag = stack[top].kind {
                value = Self.finish(stack.removeLast())
                continue
            }
            if stack[top].indefinite { return nil }
            stack[top].remaining -= 1
            guard stack[top].remaining == 0 else { return nil }
            value = Self.finish(stack.removeLast())
        }
    }

    mutating func checkKey(_ key: CBORValue, frame index: Int) throws(CBORError) {
        let keyStart = stack[index].childStart
        let keyRange = keyStart..<position
        if mode == .ctap2 && key.majorType > 3 {
            throw CBORError(.invalidMapKeyType, at: keyStart,
                            "ctap2 map keys must be integers or strings, found major type \(key.majorType)")
        }
        if mode.isDeterministic {
            if let previous = stack[index].previousKey {
                let order = compareBytes(previous, keyRange)
                if order == 0 {
                    throw CBORError(.duplicateMapKey, at: keyStart, "map key repeated")
                }
                if order > 0 {
                    throw CBORError(.unsortedMapKeys, at: keyStart,
                                    "map key sorts before the previous key (bytewise order, RFC 8949 §4.2.1)")
                }
            }
            stack[index].previousKey = keyRange
        } else {
            let canonical = CBOREncoder.canonical(key)
            guard stack[index].seenKeys.insert(canonical).inserted else {
                throw CBORError(.duplicateMapKey, at: keyStart, "map key repeated (RFC 8949 §5.6)")
            }
        }
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
