import ConformanceKit
import StrictCBOR

/// The `cbor` family against ``StrictCBOR``: decode `cborHex` in `mode`
/// (with tag validity when the input's optional `tagValidity` is true) and
/// answer the diagnostic notation, or the error code.
enum CBORSubject {
    static func evaluate(_ input: JSONValue) throws -> SubjectAnswer {
        guard let hex = input["cborHex"]?.stringValue, let bytes = BinaryText.hex(hex) else {
            throw ReferenceInputError("cbor vector needs \"cborHex\" as a hex string")
        }
        let modeName = input["mode"]?.stringValue ?? CBORMode.wellFormed.rawValue
        guard let mode = CBORMode(rawValue: modeName) else {
            throw ReferenceInputError("unknown cbor mode \"\(modeName)\"")
        }
        let tagValidity: Bool
        switch input["tagValidity"] {
        case nil, .null?: tagValidity = false
        case .bool(let on)?: tagValidity = on
        default: throw ReferenceInputError("cbor \"tagValidity\" must be true or false")
        }
        do {
            let value = try CBORDecoder(mode: mode, tagValidity: tagValidity).decode(bytes)
            return SubjectAnswer(.valid, output: .object(["diagnostic": .string(value.diagnostic)]))
        } catch {
            return SubjectAnswer(.invalid, error: error.code.rawValue,
                                 output: .object(["offset": .int(Int64(error.offset))]))
        }
    }
}
