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

extension CBORItem: CBORNodeConvertible {
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

extension CBORValue {
    /// The tree of a decoded item, for callers that change it and encode again.
    public init(_ item: CBORItem) {
        self.init(node: item)
    }

    init<T: CBORNodeConvertible>(node source: T) {
        switch source.node {
        case .unsigned(let n): self = .unsigned(n)
        case .negative(let n): self = .negative(n)
        case .bytes(let chunks, let indefinite):
            self = indefinite ? .indefiniteBytes(chunks.map { Array($0) }) : .bytes(chunks.first.map { Array($0) } ?? [])
        case .text(let chunks, let indefinite):
            self = indefinite ? .indefiniteText(chunks) : .text(chunks.first ?? "")
        case .array(let items, let indefinite):
            self = .array(items.map { CBORValue(node: $0) }, indefinite: indefinite)
        case .map(let entries, let indefinite):
            self = .map(entries.map { CBORMapEntry(CBORValue(node: $0.key), CBORValue(node: $0.value)) }, indefinite: indefinite)
        case .tag(let n, let content): self = .tag(n, CBORValue(node: content))
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
    /// The item as a ``CBORValue`` tree.
    public var value: CBORValue { CBORValue(self) }
}
