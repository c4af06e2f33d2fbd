/// The structural index the decoder builds: one fixed-size entry per
/// structural data item, in the order the items start (pre-order).
///
/// A structural item is one whose extent cannot be read from its head alone:
/// an array or map with at least one element or of indefinite length, a tag,
/// an indefinite-length string. Every other item (integers, definite
/// strings, simple values, floats, empty definite containers) is a leaf whose
/// head gives its size, so the view reads leaves straight from the input and
/// the tape holds no entry for them: 10 MB of small integers in arrays of
/// 10,000 needs about a thousand entries, not ten million.
@usableFromInline struct TapeEntry: Sendable, Equatable {
    /// Offset just past the item's last byte (its break, for indefinite items).
    @usableFromInline var end: UInt32
    /// Tape index just past this item's own entries (its next sibling's entry).
    @usableFromInline var next: UInt32
    /// Items of an array, pairs of a map, chunks of an indefinite string; 1 for a tag.
    @usableFromInline var count: UInt32

    @inlinable init(end: UInt32, next: UInt32, count: UInt32) {
        self.end = end
        self.next = next
        self.count = count
    }
}

/// The input and its tape, shared by every item of one decoded document.
///
/// One allocation holds both: the input (a slice, no copy) in the header
/// and the tape entries after it, so a decode allocates one object and
/// releases one. The readers a walk calls per item (`byte`, `head(at:)`,
/// `entry(_:)`, and CBORItem's `content`, `following` and the iterators)
/// are `@inlinable`: inlined into the caller's module, one walk step reads
/// each head once instead of calling across the module boundary about three
/// times per item, and the optimizer can drop the retain and release of
/// this storage that every copy of an item otherwise costs.
///
/// Nothing changes after `make`, so sharing it between threads is safe
/// (ManagedBuffer is not Sendable, so ``CBORItem`` says so for its field).
@usableFromInline final class CBORStorage: ManagedBuffer<CBORStorageHeader, TapeEntry> {
    /// A storage for `bytes` with `tapeCount` entries, which `fill` writes
    /// (every one of them) into the memory it is given.
    static func make(
        bytes: ArraySlice<UInt8>, tapeCount: Int,
        _ fill: (UnsafeMutablePointer<TapeEntry>) -> Void
    ) -> CBORStorage {
        let buffer = create(minimumCapacity: tapeCount) { _ in
            CBORStorageHeader(bytes: bytes, tapeCount: tapeCount)
        }
        let storage = unsafeDowncast(buffer, to: CBORStorage.self)
        storage.withUnsafeMutablePointerToElements { fill($0) }
        return storage
    }

    // The header is read through its pointer, not the `header` property: a
    // class property's every read is checked for exclusive access at run
    // time (swift_beginAccess), which doubled the cost of reading a value.

    /// The input; item offsets are relative to `bytes.startIndex`.
    @inlinable var bytes: ArraySlice<UInt8> { withUnsafeMutablePointerToHeader { $0.pointee.bytes } }

    /// Entries on the tape.
    @inlinable var tapeCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.tapeCount } }

    /// Tape entry `index` (an all-zero entry past the end: the view asks only
    /// for entries the pass wrote, and a slip must not read other memory).
    @inlinable @inline(__always) func entry(_ index: Int) -> TapeEntry {
        guard index >= 0 && index < tapeCount else { return TapeEntry(end: 0, next: 0, count: 0) }
        return withUnsafeMutablePointerToElements { $0[index] }
    }

    @inlinable @inline(__always) func byte(_ offset: Int) -> UInt8 {
        withUnsafeMutablePointerToHeader { $0.pointee.bytes[$0.pointee.bytes.startIndex + offset] }
    }

    /// The bytes at `range` (offsets relative to the start of the input).
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)]
    }

    /// The head at `offset` of input the decoder accepted: no validation.
    @inlinable @inline(__always) func head(at offset: Int) -> CBORHead { CBORHead(at: offset, byte) }
}

/// What ``CBORStorage`` keeps before its tape entries.
@usableFromInline struct CBORStorageHeader {
    /// The input; item offsets are relative to `bytes.startIndex`.
    @usableFromInline let bytes: ArraySlice<UInt8>
    /// Tape entries after the header.
    @usableFromInline let tapeCount: Int
}

/// The first bytes of a data item: initial byte and argument (RFC 8949 §3).
@usableFromInline struct CBORHead: Sendable {
    @usableFromInline let initial: UInt8
    /// The argument (the count or length for info 31 is meaningless: 0).
    @usableFromInline let argument: UInt64
    /// Bytes of the head: initial byte plus 0, 1, 2, 4 or 8 argument bytes.
    @usableFromInline let length: Int

    @inlinable init(initial: UInt8, argument: UInt64, length: Int) {
        self.initial = initial
        self.argument = argument
        self.length = length
    }

    /// The head whose initial byte is at `offset` of input the decoder
    /// accepted (`byte` reads one input byte): no validation.
    @inlinable @inline(__always) init(at offset: Int, _ byte: (Int) -> UInt8) {
        let initial = byte(offset)
        let info = initial & 0x1F
        let width = Self.argumentWidth(info)
        var argument: UInt64 = info < 24 ? UInt64(info) : 0
        if width > 0 {
            for i in 1...width { argument = argument << 8 | UInt64(byte(offset + i)) }
        }
        self.init(initial: initial, argument: argument, length: 1 + width)
    }

    @inlinable var major: UInt8 { initial >> 5 }
    @inlinable var info: UInt8 { initial & 0x1F }
    @inlinable var isIndefinite: Bool { info == 31 }

    /// Argument bytes after the initial byte for additional information `info`.
    @inlinable @inline(__always) static func argumentWidth(_ info: UInt8) -> Int {
        switch info {
        case 24: return 1
        case 25: return 2
        case 26: return 4
        case 27: return 8
        default: return 0
        }
    }

    /// Whether an item with this head has an entry on the tape.
    @inlinable @inline(__always) var isStructural: Bool {
        switch major {
        case 2, 3: return isIndefinite
        case 4, 5: return isIndefinite || argument > 0
        case 6: return true
        default: return false
        }
    }
}
