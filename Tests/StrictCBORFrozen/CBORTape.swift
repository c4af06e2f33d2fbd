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
struct TapeEntry: Sendable {
    /// Offset just past the item's last byte (its break, for indefinite items).
    var end: UInt32
    /// Tape index just past this item's own entries (its next sibling's entry).
    var next: UInt32
    /// Items of an array, pairs of a map, chunks of an indefinite string; 1 for a tag.
    var count: UInt32
}

/// The input and its tape, shared by every item of one decoded document.
final class CBORStorage: Sendable {
    /// The input; item offsets are relative to `bytes.startIndex`.
    let bytes: ArraySlice<UInt8>
    let tape: [TapeEntry]

    init(bytes: ArraySlice<UInt8>, tape: [TapeEntry]) {
        self.bytes = bytes
        self.tape = tape
    }

    @inline(__always) func byte(_ offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }

    /// The bytes at `range` (offsets relative to the start of the input).
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)]
    }

    /// The head at `offset` of input the decoder accepted: no validation.
    func head(at offset: Int) -> CBORHead { CBORHead(at: offset, byte) }
}

/// The first bytes of a data item: initial byte and argument (RFC 8949 §3).
struct CBORHead {
    let initial: UInt8
    /// The argument (the count or length for info 31 is meaningless: 0).
    let argument: UInt64
    /// Bytes of the head: initial byte plus 0, 1, 2, 4 or 8 argument bytes.
    let length: Int

    init(initial: UInt8, argument: UInt64, length: Int) {
        self.initial = initial
        self.argument = argument
        self.length = length
    }

    /// The head whose initial byte is at `offset` of input the decoder
    /// accepted (`byte` reads one input byte): no validation.
    @inline(__always) init(at offset: Int, _ byte: (Int) -> UInt8) {
        let initial = byte(offset)
        let info = initial & 0x1F
        let width = Self.argumentWidth(info)
        var argument: UInt64 = info < 24 ? UInt64(info) : 0
        if width > 0 {
            for i in 1...width { argument = argument << 8 | UInt64(byte(offset + i)) }
        }
        self.init(initial: initial, argument: argument, length: 1 + width)
    }

    var major: UInt8 { initial >> 5 }
    var info: UInt8 { initial & 0x1F }
    var isIndefinite: Bool { info == 31 }

    /// Argument bytes after the initial byte for additional information `info`.
    @inline(__always) static func argumentWidth(_ info: UInt8) -> Int {
        switch info {
        case 24: return 1
        case 25: return 2
        case 26: return 4
        case 27: return 8
        default: return 0
        }
    }

    /// Whether an item with this head has an entry on the tape.
    var isStructural: Bool {
        switch major {
        case 2, 3: return isIndefinite
        case 4, 5: return isIndefinite || argument > 0
        case 6: return true
        default: return false
        }
    }
}
