#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StrictCBOR

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

    /// Decodes `bytes` in all three modes and checks:
    /// - an error's offset lies within the input;
    /// - the modes nest: ctap2 ⊂ deterministic ⊂ wellFormed, with equal values;
    /// - an accepted item spans the whole input;
    /// - a value accepted in deterministic mode re-encodes to the input bytes;
    /// - the canonical encoding read from the view equals that of its tree;
    /// - the canonical encoding of a wellFormed value decodes in deterministic
    ///   mode and re-encodes to itself (decode→encode→decode idempotence).
    public static func cbor(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        var values: [CBORMode: CBORItem] = [:]
        for mode in CBORMode.allCases {
            do {
                let item = try CBORDecoder(mode: mode).decode(bytes)
                if item.encodedRange != 0..<bytes.count {
                    problems.append("\(mode.rawValue): item spans \(item.encodedRange), input is \(bytes.count) bytes")
                }
                values[mode] = item
            } catch {
                if error.offset < 0 || error.offset > bytes.count {
                    problems.append("\(mode.rawValue): offset \(error.offset) outside 0...\(bytes.count)")
                }
            }
        }
        // Values are compared by canonical encoding: NaN != NaN under ==.
        let canonical = values.mapValues { CBOREncoder.canonical($0) }
        if let strict = canonical[.ctap2], canonical[.deterministic] != strict {
            problems.append("ctap2 accepted what deterministic rejected or read differently")
        }
        if let deterministic = values[.deterministic] {
            if canonical[.wellFormed] != canonical[.deterministic] {
                problems.append("deterministic accepted what wellFormed rejected or read differently")
            }
            if CBOREncoder.canonical(deterministic) != bytes {
                problems.append("deterministic input does not re-encode to itself")
            }
        }
        if let value = values[.wellFormed] {
            let encoded = CBOREncoder.canonical(value)
            // The encoder reads the view directly; the tree path must agree.
            if CBOREncoder.canonical(CBORValue(value)) != encoded {
                problems.append("canonical encoding of the view differs from that of its tree")
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
}
