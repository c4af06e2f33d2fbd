// Built in only with TRUSTSUITE_LIBCBOR=1 (Package.swift): libcbor-dev is optional.
#if TRUSTSUITE_LIBCBOR
import CLibCBOR

/// libcbor (Debian's libcbor-dev, 0.8), the second decoder of the CBOR
/// differential, read into the data model.
enum LibCBOR {
    /// What libcbor made of one input.
    struct Reading: Sendable {
        /// The item, when libcbor read exactly one item spanning the input.
        var item: CBORDataModel?
        /// Why not, when it did not.
        var refusal: String?
        /// The head-by-head walk that preceded the load.
        var scan: trustsuite_cbor_scan
        /// The byte of the head where the walk stopped on an error.
        var stopByte: UInt8?

        /// The input holds a half-precision NaN with a payload libcbor drops.
        var halfNaNPayload: Bool { scan.halfNaNPayload }
        /// A definite array or map declares more elements than bytes remain.
        var countBeyondInput: Bool { scan.countBeyondInput }
    }

    /// Deepest item read back from libcbor's tree: libcbor itself gives up
    /// (CBOR_ERR_MEMERROR) a few thousand levels down, and the conversion
    /// recurses once per level.
    static let maxDepth = 4096

    static func read(_ bytes: [UInt8]) -> Reading {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return Reading(item: nil, refusal: "empty input", scan: trustsuite_cbor_scan())
            }
            let scan = trustsuite_cbor_scan_heads(base, buffer.count)
            let stopByte = scan.error && scan.stop < bytes.count ? bytes[scan.stop] : nil
            // cbor_load allocates a declared count before reading the
            // elements: an input that declares more than it holds is
            // refused without asking it (it could only say NOTENOUGHDATA
            // or MEMERROR).
            guard !scan.countBeyondInput else {
                return Reading(item: nil, refusal: "a declared count exceeds the input", scan: scan, stopByte: stopByte)
            }
            var result = cbor_load_result()
            guard let loaded = cbor_load(base, buffer.count, &result) else {
                return Reading(
                    item: nil, refusal: "cbor_load error \(result.error.code.rawValue) at \(result.error.position)",
                    scan: scan, stopByte: stopByte)
            }
            defer { cbor_intermediate_decref(loaded) }
            guard result.read == buffer.count else {
                return Reading(item: nil, refusal: "cbor_load read \(result.read) of \(buffer.count) bytes", scan: scan, stopByte: stopByte)
            }
            guard let item = model(loaded, depth: 0) else {
                return Reading(item: nil, refusal: "deeper than \(maxDepth)", scan: scan, stopByte: stopByte)
            }
            return Reading(item: item, refusal: nil, scan: scan, stopByte: stopByte)
        }
    }

    /// libcbor's item in the data model; nil beyond ``maxDepth``.
    static func model(_ item: UnsafeMutablePointer<cbor_item_t>, depth: Int) -> CBORDataModel? {
        guard depth < maxDepth else { return nil }
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT:
            return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            if cbor_bytestring_is_definite(item) { return .bytes(bytes(cbor_bytestring_handle(item), cbor_bytestring_length(item))) }
            return .bytes(
                chunks(cbor_bytestring_chunks_handle(item), cbor_bytestring_chunk_count(item)) {
                    bytes(cbor_bytestring_handle($0), cbor_bytestring_length($0))
                })
        case CBOR_TYPE_STRING:
            if cbor_string_is_definite(item) { return .text(bytes(cbor_string_handle(item), cbor_string_length(item))) }
            return .text(
                chunks(cbor_string_chunks_handle(item), cbor_string_chunk_count(item)) {
                    bytes(cbor_string_handle($0), cbor_string_length($0))
                })
        case CBOR_TYPE_ARRAY:
            var items: [CBORDataModel] = []
            let handle = cbor_array_handle(item)
            for index in 0..<cbor_array_size(item) {
                guard let element = handle?[index], let value = model(element, depth: depth + 1) else { return nil }
                items.append(value)
            }
            return .array(items)
        case CBOR_TYPE_MAP:
            var items: [CBORDataModel] = []
            let handle = cbor_map_handle(item)
            for index in 0..<cbor_map_size(item) {
                guard let pair = handle?[index], let key = pair.key, let value = pair.value,
                    let keyModel = model(key, depth: depth + 1), let valueModel = model(value, depth: depth + 1)
                else { return nil }
                items += [keyModel, valueModel]
            }
            return .map(items)
        case CBOR_TYPE_TAG:
            // cbor_tag_item takes a reference, given back here.
            guard let content = cbor_tag_item(item) else { return nil }
            defer { cbor_intermediate_decref(content) }
            return model(content, depth: depth + 1).map { .tag(cbor_tag_value(item), $0) }
        default:
            switch cbor_float_get_width(item) {
            case CBOR_FLOAT_0: return .simple(cbor_ctrl_value(item))
            case CBOR_FLOAT_16: return .float(CBORDataModel.widened(single: cbor_float_get_float2(item).bitPattern))
            case CBOR_FLOAT_32: return .float(CBORDataModel.widened(single: cbor_float_get_float4(item).bitPattern))
            default: return .float(cbor_float_get_float8(item).bitPattern)
            }
        }
    }

    static func bytes(_ start: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    /// The chunks of an indefinite string, joined.
    static func chunks(
        _ handle: UnsafeMutablePointer<UnsafeMutablePointer<cbor_item_t>?>?, _ count: Int,
        _ read: (UnsafeMutablePointer<cbor_item_t>) -> [UInt8]
    ) -> [UInt8] {
        guard let handle else { return [] }
        return (0..<count).flatMap { index in handle[index].map(read) ?? [] }
    }
}
#endif
