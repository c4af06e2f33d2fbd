/// Tag validity (RFC 8949 §5.3.2) for the tags RFC 8949 §3.4 defines, as
/// docs/models/cbor.md (round 3) lists them; only with ``CBORDecoder/tagValidity``.
///
/// | tag | content |
/// |---|---|
/// | 0 | text in RFC 3339 `date-time` form, upper-case `T` and `Z` (§3.4.1, RFC 4287 §3.3) |
/// | 1 | an integer or a float (§3.4.2) |
/// | 2, 3 | a byte string (§3.4.3) |
/// | 4, 5 | an array of two items: an integer exponent, an integer or bignum mantissa (§3.4.4) |
/// | 21, 22, 23 | any item (§3.4.5.2) |
/// | 24 | a byte string holding exactly one item that decodes in `wellFormed` mode (§3.4.5.1) |
/// | 32, 33, 34, 36 | a text string (§3.4.5.3) |
///
/// Other tag numbers pass. The check runs when the tag's content is
/// finished, so an error inside the content is reported first; the error's
/// offset is the tag's head.
extension StructuralPass {
    func checkTagContent(number: UInt64, tagStart: Int, content: Int, entry: Int) throws(CBORError) {
        let initial = buffer[content]
        let major = initial >> 5
        func invalid(_ reason: String) -> CBORError {
            CBORError(.invalidTagContent, at: tagStart, "tag \(number) \(reason)")
        }
        switch number {
        case 0:
            guard major == 3 else { throw invalid("needs a text string (RFC 8949 §3.4.1), found major type \(major)") }
            guard let time = RFC3339DateTime(stringPayload(at: content)), time.isRFC4287Form else {
                throw invalid("needs an RFC 3339 date-time with upper-case T and Z (RFC 8949 §3.4.1)")
            }
        case 1:
            let info = initial & 0x1F
            guard major <= 1 || (major == 7 && (25...27).contains(info)) else {
                throw invalid("needs an integer or a float (RFC 8949 §3.4.2)")
            }
        case 2, 3:
            guard major == 2 else { throw invalid("needs a byte string (RFC 8949 §3.4.3), found major type \(major)") }
        case 4, 5:
            try checkDecimalFraction(at: content, entry: entry, invalid)
        case 24:
            guard major == 2 else { throw invalid("needs a byte string (RFC 8949 §3.4.5.1), found major type \(major)") }
            if let problem = Self.embeddedItemProblem(stringPayload(at: content), limits: limits) {
                throw invalid("byte string does not hold one well-formed data item (RFC 8949 §3.4.5.1): \(problem)")
            }
        case 32, 33, 34, 36:
            guard major == 3 else { throw invalid("needs a text string (RFC 8949 §3.4.5.3), found major type \(major)") }
        default:
            return
        }
    }

    /// Tags 4 and 5: `[exponent, mantissa]`, the exponent an integer, the
    /// mantissa an integer or a bignum (tag 2 or 3, itself checked when it closed).
    func checkDecimalFraction(at content: Int, entry: Int, _ invalid: (String) -> CBORError) throws(CBORError) {
        let shape = "needs an array of an integer exponent and an integer or bignum mantissa (RFC 8949 §3.4.4)"
        let array = head(at: content)
        guard array.major == 4 else { throw invalid(shape) }
        // A non-empty or indefinite array has a tape entry holding its count.
        let count = array.isIndefinite || array.argument > 0 ? Int(tape[entry].count) : 0
        guard count == 2 else { throw invalid(shape + ", found \(count) item(s)") }
        let exponent = head(at: content + array.length)
        guard exponent.major <= 1 else { throw invalid(shape) }
        let mantissa = head(at: content + array.length + exponent.length)
        guard mantissa.major <= 1 || (mantissa.major == 6 && (mantissa.argument == 2 || mantissa.argument == 3)) else {
            throw invalid(shape)
        }
    }

    /// The head at `offset`, which the pass has already checked.
    func head(at offset: Int) -> CBORHead { CBORHead(at: offset) { buffer[$0] } }

    /// The bytes of the finished string at `offset`, chunks joined.
    func stringPayload(at offset: Int) -> [UInt8] {
        let string = head(at: offset)
        guard string.isIndefinite else {
            return Array(buffer[(offset + string.length)..<(offset + string.length + Int(truncatingIfNeeded: string.argument))])
        }
        var joined: [UInt8] = []
        var cursor = offset + 1
        while buffer[cursor] != 0xFF {
            let chunk = head(at: cursor)
            let start = cursor + chunk.length
            cursor = start + Int(truncatingIfNeeded: chunk.argument)
            joined += buffer[start..<cursor]
        }
        return joined
    }

    /// Why `bytes` is not exactly one data item in `wellFormed` mode under
    /// `limits`, or nil. The inner pass checks no tag content, so a chain of
    /// tag 24 costs one extra pass over each outermost payload, never a
    /// pass per level, and never recursion.
    static func embeddedItemProblem(_ bytes: [UInt8], limits: CBORLimits) -> String? {
        bytes.withUnsafeBufferPointer { inner -> String? in
            withPass(buffer: inner, input: bytes[...], mode: .wellFormed, limits: limits, tagValidity: false) { pass in
                do throws(CBORError) {
                    try pass.run()
                } catch {
                    return error.description
                }
                return pass.position == inner.count ? nil : "\(inner.count - pass.position) byte(s) after the item"
            }
        }
    }
}
