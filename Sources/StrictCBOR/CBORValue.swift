/// A decoded CBOR data item (RFC 8949 §3).
///
/// Integers keep their major type and full 64-bit argument, so every value
/// from -2^64 to 2^64-1 is represented without loss. Indefinite-length items
/// keep their form so that diagnostic notation can show it; the canonical
/// encoder writes them with definite lengths.
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is `-1 - n`.
    case negative(UInt64)
    /// Major type 2, definite length.
    case bytes([UInt8])
    /// Major type 3, definite length.
    case text(String)
    /// Major type 2, indefinite length: the chunks as they were sent.
    case indefiniteBytes([[UInt8]])
    /// Major type 3, indefinite length: the chunks as they were sent.
    case indefiniteText([String])
    /// Major type 4.
    case array([CBORValue], indefinite: Bool = false)
    /// Major type 5, entries in the order they were sent.
    case map([CBORMapEntry], indefinite: Bool = false)
    /// Major type 6.
    case tag(UInt64, CBORValue)
    /// Major type 7, values 20 and 21.
    case bool(Bool)
    /// Major type 7, value 22.
    case null
    /// Major type 7, value 23.
    case undefined
    /// Major type 7, unassigned simple values 0–19 and 32–255.
    case simple(UInt8)
    /// Major type 7, half, single or double precision (kept as a Double; NaN
    /// payloads are kept bit for bit).
    case float(Double)
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    public var key: CBORValue
    public var value: CBORValue

    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}

extension CBORValue {
    /// A map with definite length built from pairs, in the given order.
    public static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry($0.0, $0.1) }, indefinite: false)
    }

    /// An integer value from a signed Swift integer.
    public static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The value as a signed 64-bit integer, or nil when it is not an integer.
    /// Throws `integerOverflow` when it is an integer outside Int64.
    public func int64Value() throws(CBORError) -> Int64? {
        switch self {
        case .unsigned(let n):
            guard n <= UInt64(Int64.max) else {
                throw CBORError(.integerOverflow, at: 0, "\(n) does not fit in Int64")
            }
            return Int64(n)
        case .negative(let n):
            guard n <= UInt64(Int64.max) else {
                throw CBORError(.integerOverflow, at: 0, "-1-\(n) does not fit in Int64")
            }
            return -1 - Int64(n)
        default:
            return nil
        }
    }

    /// The bytes of a byte string (definite or indefinite), else nil.
    public var bytesValue: [UInt8]? {
        switch self {
        case .bytes(let b): return b
        case .indefiniteBytes(let chunks): return chunks.flatMap { $0 }
        default: return nil
        }
    }

    /// The text of a text string (definite or indefinite), else nil.
    public var textValue: String? {
        switch self {
        case .text(let s): return s
        case .indefiniteText(let chunks): return chunks.joined()
        default: return nil
        }
    }

    /// The items of an array, else nil.
    public var arrayValue: [CBORValue]? {
        if case .array(let items, _) = self { return items }
        return nil
    }

    /// The entries of a map, else nil.
    public var mapEntries: [CBORMapEntry]? {
        if case .map(let entries, _) = self { return entries }
        return nil
    }

    /// The value stored under `key` when this is a map; nil otherwise.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries, _) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value stored under the text key `key` when this is a map.
    public subscript(key: String) -> CBORValue? {
        self[.text(key)]
    }

    /// The RFC 8949 major type (0–7) of this value.
    public var majorType: UInt8 {
        switch self {
        case .unsigned: return 0
        case .negative: return 1
        case .bytes, .indefiniteBytes: return 2
        case .text, .indefiniteText: return 3
        case .array: return 4
        case .map: return 5
        case .tag: return 6
        case .bool, .null, .undefined, .simple, .float: return 7
        }
    }
}

extension CBORValue {
    /// The tree of a decoded item, for callers that change it and encode
    /// again. The walk is iterative; an item nested deeper than
    /// ``CBORLimits/maxValueDepth`` throws `depthLimitExceeded`, because
    /// Swift frees an enum tree recursively and a deeper tree would exhaust
    /// the stack when it is released.
    public init(_ item: CBORItem) throws(CBORError) {
        /// An open array, map or tag: its children (a map's keys and values
        /// interleaved) and the values built for them so far.
        struct Open {
            var node: CBORNode<CBORItem>
            var children: [CBORItem]
            var built: [CBORValue] = []
        }
        var stack: [Open] = []
        var pending = item
        while true {
            let node = pending.node
            let children: [CBORItem]
            switch node {
            case .array(let items, _): children = items
            case .map(let entries, _): children = entries.flatMap { [$0.key, $0.value] }
            case .tag(_, let content): children = [content]
            default: children = []
            }
            if !children.isEmpty {
                guard stack.count < CBORLimits.maxValueDepth else {
                    throw CBORError(
                        .depthLimitExceeded, at: pending.offset,
                        "a CBORValue tree is limited to \(CBORLimits.maxValueDepth) levels")
                }
                stack.append(Open(node: node, children: children))
                pending = children[0]
                continue
            }
            var finished = Self(leaf: node)
            while true {
                guard var top = stack.popLast() else {
                    self = finished
                    return
                }
                top.built.append(finished)
                if top.built.count < top.children.count {
                    pending = top.children[top.built.count]
                    stack.append(top)
                    break
                }
                finished = Self(node: top.node, children: top.built)
            }
        }
    }

    /// A value without children: a leaf, or an empty array or map.
    init(leaf node: CBORNode<CBORItem>) {
        self.init(node: node, children: [])
    }

    /// The value of `node` whose children (a map's keys and values
    /// interleaved) are already built.
    init(node: CBORNode<CBORItem>, children: [CBORValue]) {
        switch node {
        case .unsigned(let n): self = .unsigned(n)
        case .negative(let n): self = .negative(n)
        case .bytes(let chunks, let indefinite):
            self = indefinite ? .indefiniteBytes(chunks.map { Array($0) }) : .bytes(chunks.first.map { Array($0) } ?? [])
        case .text(let chunks, let indefinite):
            self = indefinite ? .indefiniteText(chunks) : .text(chunks.first ?? "")
        case .array(_, let indefinite):
            self = .array(children, indefinite: indefinite)
        case .map(_, let indefinite):
            self = .map(
                stride(from: 0, to: children.count - 1, by: 2).map { CBORMapEntry(children[$0], children[$0 + 1]) },
                indefinite: indefinite)
        case .tag(let n, _): self = children.first.map { .tag(n, $0) } ?? .null
        case .simple(20): self = .bool(false)
        case .simple(21): self = .bool(true)
        case .simple(22): self = .null
        case .simple(23): self = .undefined
        case .simple(let n): self = .simple(n)
        case .float(let d): self = .float(d)
        }
    }
}

extension CBORItem {
    /// The item as a ``CBORValue`` tree (throws `depthLimitExceeded` past
    /// ``CBORLimits/maxValueDepth`` levels).
    public var value: CBORValue {
        get throws(CBORError) { try CBORValue(self) }
    }
}
