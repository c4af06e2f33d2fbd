// Built in only with TRUSTSUITE_LIBCBOR=1 (Package.swift): libcbor-dev is optional.
#if TRUSTSUITE_LIBCBOR
import StrictCBOR

extension FuzzTargets {
    /// What StrictCBOR (wellFormed mode, default limits) and libcbor made
    /// of one input, and the classes of known disagreement it falls in.
    struct CBORVerdicts: Sendable {
        var strict: CBORDataModel?
        var strictError: CBORError?
        var libcbor: LibCBOR.Reading
        var classes: [Disagreement]
    }

    /// StrictCBOR as the differential reads it: wellFormed mode, default limits.
    static func strictCBOR(_ bytes: [UInt8]) -> Result<CBORDataModel, CBORError> {
        do { return .success(CBORDataModel(try CBORDecoder(mode: .wellFormed).decode(bytes))) } catch { return .failure(error) }
    }

    /// The verdicts for `bytes`, with StrictCBOR replaced by `decode` when
    /// given (the tests inject a broken decoder through it).
    static func cborVerdicts(
        _ bytes: [UInt8],
        decode: ([UInt8]) -> Result<CBORDataModel, CBORError> = strictCBOR
    ) -> CBORVerdicts {
        let strict = decode(bytes)
        let ours = try? strict.get()
        let theirs = LibCBOR.read(bytes)
        var classes: [Disagreement] = []
        // Each class excuses one direction only, and is decided from the
        // input as libcbor read it, never from StrictCBOR's error.
        if ours == nil, let item = theirs.item {
            if item.hasDuplicateKeys { classes.append(.duplicateMapKey) }
            if item.depth > CBORLimits.defaultMaxDepth { classes.append(.nestingLimit) }
        }
        if ours != nil, theirs.item == nil, let byte = theirs.stopByte {
            if (0xE0...0xF3).contains(byte) || byte == 0xF8 { classes.append(.unassignedSimpleValue) }
            if (0xC6...0xD4).contains(byte) { classes.append(.shortTagHead) }
        }
        if ours != nil, theirs.item != nil, ours != theirs.item, theirs.halfNaNPayload { classes.append(.halfNaNPayload) }
        var strictError: CBORError?
        if case .failure(let error) = strict { strictError = error }
        return CBORVerdicts(strict: ours, strictError: strictError, libcbor: theirs, classes: classes)
    }

    /// StrictCBOR in wellFormed mode against libcbor: where StrictCBOR
    /// accepts, libcbor accepts the same item in the data model (floats bit
    /// for bit) and reads no two keys of a map as equal; where they
    /// disagree, a class listed in `Fuzz/known-disagreements.json` explains
    /// it, or it is a finding.
    public static func cborDifferential(_ bytes: [UInt8]) -> [String] {
        cborDifferential(bytes, decode: strictCBOR)
    }

    static func cborDifferential(
        _ bytes: [UInt8], decode: ([UInt8]) -> Result<CBORDataModel, CBORError>,
        entries: [KnownDisagreements.Entry] = KnownDisagreements.entries
    ) -> [String] {
        let verdicts = cborVerdicts(bytes, decode: decode)
        var problems: [String] = []
        if let item = verdicts.strict, item == verdicts.libcbor.item, item.hasDuplicateKeys {
            problems.append("StrictCBOR accepted a map with two keys equal in the data model")
        }
        guard verdicts.strict != verdicts.libcbor.item else { return problems }
        let description: String
        switch (verdicts.strict, verdicts.libcbor.item) {
        case (.some, .some): description = "both accept, but read different items"
        case (.some, .none): description = "StrictCBOR accepts, libcbor refuses (\(verdicts.libcbor.refusal ?? "?"))"
        default: description = "libcbor accepts, StrictCBOR refuses (\(verdicts.strictError.map { "\($0.code.rawValue)" } ?? "?"))"
        }
        return problems
            + KnownDisagreements.judge(
                .cborDifferential, description, classes: verdicts.classes,
                other: "libcbor", entries: entries)
    }
}
#endif
