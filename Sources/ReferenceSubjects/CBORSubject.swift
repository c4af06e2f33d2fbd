import VectorContract
import StrictCBOR
import TrustSuiteSupport

/// The `cbor` family against ``StrictCBOR``: decode `cborHex` in `mode`
/// (with tag validity when the input's optional `tagValidity` is true) and
/// answer the diagnostic notation, or the error code.
enum CBORSubject {
    static func evaluate(_ input: CBORFamily.Input) throws -> SubjectAnswer {
        let mode: CBORMode = try model(input.mode ?? .wellFormed)
        do {
            let value = try CBORDecoder(mode: mode, tagValidity: input.tagValidity ?? false).decode(input.cborHex.bytes)
            return SubjectAnswer(.valid, output: .object(["diagnostic": .string(value.diagnostic)]))
        } catch {
            return SubjectAnswer(
                .invalid, error: error.code.rawValue,
                output: .object(["offset": .int(Int64(error.offset))]))
        }
    }
}
