/// One level of a data item, as the encoder, the diagnostic writer and the
/// tree conversion see it: the same code serves the ``CBORValue`` tree and
/// the decoder's ``CBORItem`` view.
enum CBORNode<Child> {
    case unsigned(UInt64)
    case negative(UInt64)
    case bytes([ArraySlice<UInt8>], indefinite: Bool)
    case text([String], indefinite: Bool)
    case array([Child], indefinite: Bool)
    case map([(key: Child, value: Child)], indefinite: Bool)
    case tag(UInt64, Child)
    /// Major type 7 except floats: 20 false, 21 true, 22 null, 23 undefined.
    case simple(UInt8)
    case float(Double)
}

protocol CBORNodeConvertible {
    var node: CBORNode<Self> { get }
    /// Appends the canonical encoding of a leaf (anything but an array, map
    /// or tag) and returns true; false, writing nothing, for those three.
    func appendCanonicalLeaf(to out: inout [UInt8]) -> Bool
}

extension CBORValue: CBORNodeConvertible {
    var node: CBORNode<CBORValue> {
        switch self {
        case .unsigned(let n): return .unsigned(n)
        case .negative(let n): return .negative(n)
        case .bytes(let b): return .bytes([b[...]], indefinite: false)
        case .indefiniteBytes(let chunks): return .bytes(chunks.map { $0[...] }, indefinite: true)
        case .text(let s): return .text([s], indefinite: false)
        case .indefiniteText(let chunks): return .text(chunks, indefinite: true)
        case .array(let items, let indefinite): return .array(items, indefinite: indefinite)
        case .map(let entries, let indefinite): return .map(entries.map { ($0.key, $0.value) }, indefinite: indefinite)
        case .tag(let n, let content): return .tag(n, content)
        case .bool(let b): return .simple(b ? 21 : 20)
        case .null: return .simple(22)
        case .undefined: return .simple(23)
        case .simple(let n): return .simple(n)
        case .float(let d): return .float(d)
        }
    }
}

extension CBORValue {
    func appendCanonicalLeaf(to out: inout [UInt8]) -> Bool {
        switch self {
        case .array, .map, .tag: return false
        default: return CBOREncoder.appendLeaf(node, to: &out)
        }
    }
}

extension CBORItem: CBORNodeConvertible {
    func appendCanonicalLeaf(to out: inout [UInt8]) -> Bool { CBOREncoder.appendLeaf(self, to: &out) }

    var node: CBORNode<CBORItem> {
        switch content {
        case .unsigned(let n): return .unsigned(n)
        case .negative(let n): return .negative(n)
        case .bytes: return .bytes(stringChunks ?? [], indefinite: isIndefinite)
        case .text: return .text((stringChunks ?? []).map(Self.text), indefinite: isIndefinite)
        case .array(let items): return .array(Array(items), indefinite: items.isIndefinite)
        case .map(let entries): return .map(Array(entries), indefinite: entries.isIndefinite)
        case .tag(let n, let content): return .tag(n, content)
        case .bool(let b): return .simple(b ? 21 : 20)
        case .null: return .simple(22)
        case .undefined: return .simple(23)
        case .simple(let n): return .simple(n)
        case .float(let d): return .float(d)
        }
    }
}
