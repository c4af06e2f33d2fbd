/// A decoded data item: a view into the decoder's input and tape.
///
/// Nothing is copied at decoding time; integers, strings and floats are read
/// from the input when asked for, byte strings come back as slices of it, and
/// arrays and maps are walked in order (maps also by key). An item keeps its
/// whole document alive. ``value`` builds the ``CBORValue`` tree when a
/// caller wants one to change and encode again.
public struct CBORItem: Sendable {
    /// Never changed after the decode (see ``CBORStorage``); the compiler
    /// cannot see that through its ManagedBuffer base, which is not Sendable.
    @usableFromInline nonisolated(unsafe) let storage: CBORStorage
    /// Offset of the item's head, relative to the start of the decoded input.
    @usableFromInline let offset: Int
    /// The item's tape entry when it is structural; otherwise where the
    /// entries of the items after it begin.
    @usableFromInline let entry: Int

    @inlinable init(storage: CBORStorage, offset: Int, entry: Int) {
        self.storage = storage
        self.offset = offset
        self.entry = entry
    }

    @inlinable @inline(__always) var head: CBORHead { storage.head(at: offset) }

    /// What the item is; containers and tags come with a view of their content.
    public enum Content: Sendable {
        case unsigned(UInt64)
        /// Major type 1: the value is `-1 - n`.
        case negative(UInt64)
        /// Major type 2 (read with ``CBORItem/bytesValue`` or ``CBORItem/byteChunks``).
        case bytes
        /// Major type 3 (read with ``CBORItem/textValue``).
        case text
        case array(CBORArray)
        case map(CBORMap)
        case tag(UInt64, CBORItem)
        case bool(Bool)
        case null
        case undefined
        /// Unassigned simple values 0–19 and 32–255.
        case simple(UInt8)
        /// Half, single or double precision, as a Double (NaN payloads kept).
        case float(Double)
    }

    @inlinable @inline(__always) public var content: Content {
        let head = self.head
        switch head.major {
        case 0: return .unsigned(head.argument)
        case 1: return .negative(head.argument)
        case 2: return .bytes
        case 3: return .text
        case 4: return .array(CBORArray(container: self))
        case 5: return .map(CBORMap(container: self))
        case 6: return .tag(head.argument, CBORItem(storage: storage, offset: offset + head.length, entry: entry + 1))
        default:
            switch head.info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 24: return .simple(UInt8(truncatingIfNeeded: head.argument))
            case 25: return .float(CBORFloat.double(fromHalf: UInt16(truncatingIfNeeded: head.argument)))
            case 26: return .float(CBORFloat.double(fromSingle: UInt32(truncatingIfNeeded: head.argument)))
            case 27: return .float(Double(bitPattern: head.argument))
            default: return .simple(head.info)
            }
        }
    }

    /// Whether this item's document and `other`'s have the same tape, entry
    /// for entry (end, next and count; see ``TapeEntry``): for the fuzz
    /// oracle, which compares the tapes of the quick check and the
    /// structural pass. Compared in place, nothing allocated.
    @_spi(Oracle) public func hasTheTape(of other: CBORItem) -> Bool {
        let count = storage.tapeCount
        guard count == other.storage.tapeCount else { return false }
        return (0..<count).allSatisfy { storage.entry($0) == other.storage.entry($0) }
    }

    /// The RFC 8949 major type (0–7).
    @inlinable public var majorType: UInt8 { storage.byte(offset) >> 5 }

    /// Whether the item is an indefinite-length string, array or map.
    public var isIndefinite: Bool { storage.byte(offset) & 0x1F == 31 }

    /// Offsets of the item's encoding in the decoded input.
    public var encodedRange: Range<Int> { offset..<end }

    /// The item's own encoding, as sent.
    public var encodedBytes: ArraySlice<UInt8> { storage.slice(encodedRange) }

    /// Offset just past the item.
    @inlinable var end: Int {
        let head = self.head
        if head.isStructural { return Int(storage.entry(entry).end) }
        return offset + head.length + Self.payloadLength(head)
    }

    /// Bytes after the head of a leaf: a definite string's payload, else none.
    @inlinable static func payloadLength(_ head: CBORHead) -> Int {
        head.major == 2 || head.major == 3 ? Int(truncatingIfNeeded: head.argument) : 0
    }

    /// The item after this one inside the same container (its head read once).
    @inlinable @inline(__always) var following: CBORItem {
        let head = self.head
        guard head.isStructural else {
            return CBORItem(storage: storage, offset: offset + head.length + Self.payloadLength(head), entry: entry)
        }
        let e = storage.entry(entry)
        return CBORItem(storage: storage, offset: Int(e.end), entry: Int(e.next))
    }

    /// Whether this item is the break that ends an indefinite-length container.
    var isBreak: Bool { storage.byte(offset) == 0xFF }
}

// MARK: - Scalars and strings

extension CBORItem {
    /// The value as a signed 64-bit integer, or nil when it is not an integer.
    /// Throws `integerOverflow` when it is an integer outside Int64.
    public func int64Value() throws(CBORError) -> Int64? {
        let head = self.head
        switch head.major {
        case 0:
            guard head.argument <= UInt64(Int64.max) else {
                throw CBORError(.integerOverflow, at: offset, "\(head.argument) does not fit in Int64")
            }
            return Int64(head.argument)
        case 1:
            guard head.argument <= UInt64(Int64.max) else {
                throw CBORError(.integerOverflow, at: offset, "-1-\(head.argument) does not fit in Int64")
            }
            return -1 - Int64(head.argument)
        default:
            return nil
        }
    }

    /// The payloads of a byte or text string, one per chunk (a definite
    /// string has one), as slices of the input; nil for other items.
    public var stringChunks: [ArraySlice<UInt8>]? {
        let head = self.head
        guard head.major == 2 || head.major == 3 else { return nil }
        guard head.isIndefinite else { return [payload(head)] }
        var chunks: [ArraySlice<UInt8>] = []
        chunks.reserveCapacity(Int(storage.entry(entry).count))
        var cursor = offset + 1
        while storage.byte(cursor) != 0xFF {
            let chunkHead = storage.head(at: cursor)
            let start = cursor + chunkHead.length
            let length = Int(truncatingIfNeeded: chunkHead.argument)
            chunks.append(storage.slice(start..<(start + length)))
            cursor = start + length
        }
        return chunks
    }

    func payload(_ head: CBORHead) -> ArraySlice<UInt8> {
        let start = offset + head.length
        return storage.slice(start..<(start + Int(truncatingIfNeeded: head.argument)))
    }

    /// The payload of a definite-length byte string, without copying.
    public var byteSlice: ArraySlice<UInt8>? {
        let head = self.head
        guard head.major == 2, !head.isIndefinite else { return nil }
        return payload(head)
    }

    /// The bytes of a byte string (chunks joined), else nil.
    public var bytesValue: [UInt8]? {
        guard majorType == 2, let chunks = stringChunks else { return nil }
        return chunks.count == 1 ? Array(chunks[0]) : Array(chunks.joined())
    }

    /// The text of a text string (chunks joined), else nil. A definite
    /// string (the usual case) is made straight from its payload, without
    /// a chunk array or a join.
    public var textValue: String? {
        let head = self.head
        guard head.major == 3 else { return nil }
        guard head.isIndefinite else { return Self.text(payload(head)) }
        return stringChunks?.map(Self.text).joined()
    }

    /// Text the decoder validated as UTF-8. ASCII (the usual case: map
    /// keys, format names) is copied into the string as it is, since ASCII
    /// bytes are UTF-8 by definition; other text goes through
    /// `String(validating:as:)` again (docs/models/cbor.md), whose generic path
    /// costs hundreds of instructions of runtime metadata lookups per call.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard StructuralPass.isASCII(buffer) else { return String(validating: buffer, as: UTF8.self) ?? "" }
            return String(unsafeUninitializedCapacity: buffer.count) { target in
                target.initialize(fromContentsOf: buffer)
            }
        }
    }

    /// Whether this is a text string equal to `text`, compared on bytes.
    func isText(_ text: String) -> Bool {
        let head = self.head
        guard head.major == 3 else { return false }
        guard !head.isIndefinite else { return textValue == text }
        return payload(head).elementsEqual(text.utf8)
    }

    /// The array's items, else nil.
    public var arrayValue: CBORArray? { majorType == 4 ? CBORArray(container: self) : nil }

    /// The map's entries, else nil.
    public var mapValue: CBORMap? { majorType == 5 ? CBORMap(container: self) : nil }

    /// The value stored under the text key `key` when this is a map.
    public subscript(key: String) -> CBORItem? { mapValue?[key] }

    /// The value stored under the integer key `key` when this is a map.
    public subscript(key: Int64) -> CBORItem? { mapValue?[key] }
}

/// Items of the same encoding are equal: the same bytes make the same item.
extension CBORItem: Hashable {
    public static func == (lhs: CBORItem, rhs: CBORItem) -> Bool { lhs.encodedBytes.elementsEqual(rhs.encodedBytes) }
    public func hash(into hasher: inout Hasher) { hasher.combine(encodedBytes) }
}

// MARK: - Containers

/// The items of a decoded array, in order.
public struct CBORArray: Sequence, Sendable {
    @usableFromInline let container: CBORItem

    @inlinable init(container: CBORItem) { self.container = container }

    /// Number of items.
    @inlinable public var count: Int {
        let head = container.head
        return head.isStructural ? Int(container.storage.entry(container.entry).count) : 0
    }

    public var isIndefinite: Bool { container.isIndefinite }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var upcoming: CBORItem
        @usableFromInline var left: Int

        @inlinable init(upcoming: CBORItem, left: Int) {
            self.upcoming = upcoming
            self.left = left
        }

        @inlinable @inline(__always) public mutating func next() -> CBORItem? {
            guard left > 0 else { return nil }
            left -= 1
            let item = upcoming
            upcoming = item.following
            return item
        }
    }

    @inlinable public func makeIterator() -> Iterator {
        let head = container.head
        let first = CBORItem(storage: container.storage, offset: container.offset + head.length, entry: container.entry + 1)
        return Iterator(upcoming: first, left: count)
    }

    @inlinable public var underestimatedCount: Int { count }
}

/// The entries of a decoded map, in the order they were sent.
public struct CBORMap: Sequence, Sendable {
    @usableFromInline let container: CBORItem

    @inlinable init(container: CBORItem) { self.container = container }

    /// Number of key/value pairs.
    @inlinable public var count: Int {
        let head = container.head
        return head.isStructural ? Int(container.storage.entry(container.entry).count) : 0
    }

    public var isIndefinite: Bool { container.isIndefinite }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var upcoming: CBORItem
        @usableFromInline var left: Int

        @inlinable init(upcoming: CBORItem, left: Int) {
            self.upcoming = upcoming
            self.left = left
        }

        @inlinable @inline(__always) public mutating func next() -> (key: CBORItem, value: CBORItem)? {
            guard left > 0 else { return nil }
            left -= 1
            let key = upcoming
            let value = key.following
            upcoming = value.following
            return (key, value)
        }
    }

    @inlinable public func makeIterator() -> Iterator {
        let head = container.head
        let first = CBORItem(storage: container.storage, offset: container.offset + head.length, entry: container.entry + 1)
        return Iterator(upcoming: first, left: count)
    }

    @inlinable public var underestimatedCount: Int { count }

    /// The value under the text key `key` (the first, should a wellFormed map repeat it).
    public subscript(key: String) -> CBORItem? {
        first { $0.key.isText(key) }?.value
    }

    /// The value under the integer key `key`.
    public subscript(key: Int64) -> CBORItem? {
        first { (try? $0.key.int64Value()) == key }?.value
    }
}
