#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Oracle) import StrictCBOR

/// Fuzz oracles shared by the libFuzzer harnesses in `Fuzz/` and by the
/// `swift test` replay of `Fuzz/Corpus` and `Fuzz/FailCases`.
///
/// Each target returns the list of violated properties; a harness aborts
/// on a non-empty list, a test records each entry as an issue. A trap
/// inside a target is itself a finding.
public enum FuzzTargets {
    /// The body of every libFuzzer entry point: runs `target` on the input
    /// and aborts (so libFuzzer saves the input) when it reports a problem.
    public static func libFuzzerEntry(
        _ start: UnsafePointer<UInt8>?, _ count: Int, name: String, _ target: ([UInt8]) -> [String]
    ) -> Int32 {
        let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        let problems = target(bytes)
        guard problems.isEmpty else {
            // stderr, unbuffered: stdout's buffer would be lost in abort().
            for problem in problems { FileHandle.standardError.write(Data("\(name) oracle: \(problem)\n".utf8)) }
            abort()
        }
        return 0
    }

    /// The entry of an async oracle: run to completion on libFuzzer's
    /// thread (``InlineExecutor``), so every job of the verification, and
    /// the task's release, happen before the entry returns and LeakSanitizer
    /// and libFuzzer's malloc/free balance see all its memory freed.
    public static func libFuzzerEntry(
        _ start: UnsafePointer<UInt8>?, _ count: Int, name: String, async target: @escaping @Sendable ([UInt8]) async -> [String]
    ) -> Int32 {
        libFuzzerEntry(start, count, name: name) { bytes in InlineExecutor.run { await target(bytes) } ?? [] }
    }

    /// Decodes `bytes` in all three modes and checks:
    /// - an error's offset lies within the input;
    /// - the modes nest: ctap2 ⊂ deterministic ⊂ wellFormed, with equal values;
    /// - an accepted item spans the whole input;
    /// - a value accepted in deterministic mode re-encodes to the input bytes;
    /// - the canonical encoding read from the view equals that of its tree;
    /// - the canonical encoding of a wellFormed value decodes in deterministic
    ///   mode and re-encodes to itself (decode→encode→decode idempotence);
    /// - the options only move verdicts one way: with `tagValidity` an input
    ///   is accepted the same or refused with `invalidTagContent`, and never
    ///   accepted when the default refuses it; with the depth limit raised to
    ///   ``CBORLimits/hardMaxDepth`` an input accepted by default is accepted
    ///   the same, and one refused for anything but depth is refused with
    ///   the same error;
    /// - in wellFormed mode, `validate` gives `decode`'s verdict and its error
    ///   (code, offset and reason): its quick path decides most wellFormed
    ///   inputs without the full pass; and what that quick check decides
    ///   when `decode` runs it first (recording the tape as it goes) is the
    ///   structural pass's verdict, error, and tape entry for entry (what it
    ///   leaves undecided, `decode` hands to the pass itself).
    /// `decoder.validate(bytes)` against the decode's `outcome`, and the
    /// quick check alone against the pass alone.
    static func checkValidate(
        _ bytes: [UInt8], _ decoder: CBORDecoder, _ outcome: Result<CBORItem, CBORError>,
        _ label: String, into problems: inout [String]
    ) {
        let validated: CBORError?
        do throws(CBORError) {
            try decoder.validate(bytes)
            validated = nil
        } catch {
            validated = error
        }
        if let quick = decoder.decodeByQuickCheck(bytes) {
            switch (quick, Result { () throws(CBORError) in try decoder.decodeByStructuralPass(bytes) }) {
            case (.success(let item), .success(let other)):
                if !item.hasTheTape(of: other) { problems.append("\(label): the quick decode's tape is not the pass's") }
            case (.failure(let error), .failure(let other)):
                if error != other || error.reason != other.reason {
                    problems.append("\(label): the quick check said \(error), the pass \(other)")
                }
            case (.success, .failure(let other)):
                problems.append("\(label): the quick check accepted an input the pass refused with \(other)")
            case (.failure(let error), .success):
                problems.append("\(label): the quick check refused an input the pass accepts, with \(error)")
            }
        }
        switch (outcome, validated) {
        case (.success, nil):
            break
        case (.success, let error?):
            problems.append("\(label): validate refused an accepted input with \(error)")
        case (.failure(let error), nil):
            problems.append("\(label): validate accepted an input decode refused with \(error)")
        case (.failure(let error), let other?):
            if error != other || error.reason != other.reason {
                problems.append("\(label): validate said \(other), decode \(error)")
            }
        }
    }

    public static func cbor(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        // Each accepted value's canonical encoding, made once: values are
        // compared by it (NaN != NaN under ==).
        var canonical: [CBORMode: [UInt8]] = [:]
        var wellFormedItem: CBORItem?
        for mode in CBORMode.allCases {
            let outcome = decode(bytes, CBORDecoder(mode: mode), mode.rawValue, into: &problems)
            let encoded: [UInt8]?
            if case .success(let item) = outcome {
                encoded = CBOREncoder.canonical(item)
                if case .wellFormed = mode { wellFormedItem = item }
            } else {
                encoded = nil
            }
            canonical[mode] = encoded
            let checked = decode(bytes, CBORDecoder(mode: mode, tagValidity: true), "\(mode.rawValue)+tagValidity", into: &problems)
            // validate has code of its own only in wellFormed mode without
            // tagValidity (QuickValidation); elsewhere it is the pass decode
            // runs, which FrozenDecoderDifferentialTests compares on every
            // corpus input, so the harness spends no executions on it.
            if case .wellFormed = mode { checkValidate(bytes, CBORDecoder(mode: mode), outcome, mode.rawValue, into: &problems) }
            switch (outcome, checked) {
            case (.success, .success(let other)) where encoded != CBOREncoder.canonical(other):
                problems.append("\(mode.rawValue): tagValidity read the input differently")
            case (.success, .failure(let error)) where error.code != .invalidTagContent:
                problems.append("\(mode.rawValue): tagValidity refused an accepted input with \(error.code.rawValue)")
            case (.failure(let error), .success):
                problems.append("\(mode.rawValue): tagValidity accepted an input refused with \(error.code.rawValue)")
            default:
                break
            }
            let deep = CBORDecoder(mode: mode, limits: CBORLimits(maxDepth: CBORLimits.hardMaxDepth))
            switch (outcome, decode(bytes, deep, "\(mode.rawValue)+maxDepth", into: &problems)) {
            case (.success, .success(let other)) where encoded != CBOREncoder.canonical(other):
                problems.append("\(mode.rawValue): a raised depth limit read the input differently")
            case (.success, .failure(let error)):
                problems.append("\(mode.rawValue): a raised depth limit refused an accepted input with \(error.code.rawValue)")
            case (.failure(let error), .failure(let other)) where error.code != .depthLimitExceeded && error != other:
                problems.append("\(mode.rawValue): a raised depth limit changed \(error) to \(other)")
            case (.failure(let error), .success) where error.code != .depthLimitExceeded:
                problems.append("\(mode.rawValue): a raised depth limit accepted an input refused with \(error.code.rawValue)")
            default:
                break
            }
        }
        if let strict = canonical[.ctap2], canonical[.deterministic] != strict {
            problems.append("ctap2 accepted what deterministic rejected or read differently")
        }
        if let deterministic = canonical[.deterministic] {
            if canonical[.wellFormed] != deterministic {
                problems.append("deterministic accepted what wellFormed rejected or read differently")
            }
            if deterministic != bytes {
                problems.append("deterministic input does not re-encode to itself")
            }
        }
        if let value = wellFormedItem, let encoded = canonical[.wellFormed] {
            // The encoder reads the view directly; the tree path must agree
            // (the default depth limit is far below the tree's).
            do {
                if CBOREncoder.canonical(try CBORValue(value)) != encoded {
                    problems.append("canonical encoding of the view differs from that of its tree")
                }
            } catch {
                problems.append("an item within the default depth limit has no tree: \(error)")
            }
            do {
                let again = try CBORDecoder(mode: .deterministic).decode(encoded)
                if CBOREncoder.canonical(again) != encoded {
                    problems.append("canonical encoding is not stable under decode→encode")
                }
            } catch {
                problems.append("canonical encoding rejected in deterministic mode: \(error)")
            }
        }
        return problems
    }

    /// Decodes `bytes` with `decoder`, noting a result that does not span
    /// the input or an error offset outside it.
    static func decode(
        _ bytes: [UInt8], _ decoder: CBORDecoder, _ name: String,
        into problems: inout [String]
    ) -> Result<CBORItem, CBORError> {
        do {
            let item = try decoder.decode(bytes)
            if item.encodedRange != 0..<bytes.count {
                problems.append("\(name): item spans \(item.encodedRange), input is \(bytes.count) bytes")
            }
            return .success(item)
        } catch {
            if error.offset < 0 || error.offset > bytes.count {
                problems.append("\(name): offset \(error.offset) outside 0...\(bytes.count)")
            }
            return .failure(error)
        }
    }
}
