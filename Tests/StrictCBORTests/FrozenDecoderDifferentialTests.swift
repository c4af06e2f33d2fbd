import Foundation
import Synchronization
import StrictCBOR
import StrictCBORFrozen
import Testing
import TestSupport
import TrustSuiteSupport

/// The speed work of issue 30 changes no result: the decoder and a frozen
/// copy of it from before that work (Tests/StrictCBORFrozen) read the same
/// inputs in every mode and option, and must agree on the verdict, the
/// error's code, offset and reason, the bytes consumed, the canonical
/// encoding and the diagnostic notation (which reads every value through
/// the view). Inputs: the four CBOR fuzz corpora, every CBOR hex and App
/// Attest object of Fixtures/, RFC 8949 Appendix A and the CBOR working
/// group's vectors (external), and seeded random mutations of all of them.
@Suite struct FrozenDecoderDifferentialTests {
    /// One decoder configuration, built the same way for both copies.
    struct Configuration: Sendable, CustomStringConvertible {
        let mode: String
        let tagValidity: Bool
        let maxDepth: Int?
        var description: String { "\(mode)\(tagValidity ? "+tags" : "")\(maxDepth.map { " depth \($0)" } ?? "")" }
    }

    static let configurations: [Configuration] =
        ["wellFormed", "deterministic", "ctap2"].flatMap { mode in
            [Configuration(mode: mode, tagValidity: false, maxDepth: nil), Configuration(mode: mode, tagValidity: true, maxDepth: nil)]
        } + [
            Configuration(mode: "wellFormed", tagValidity: true, maxDepth: 512),
            Configuration(mode: "deterministic", tagValidity: false, maxDepth: 1),
        ]

    /// What one decoder says about `bytes`: `first` runs decodeFirst and
    /// describes the item, `whole` runs decode, `refusal` describes an error.
    static func report(first: () throws -> String, whole: () throws -> Void, refusal: (any Error) -> String) -> String {
        var lines: [String] = []
        do { lines.append(try first()) } catch { lines.append("first: " + refusal(error)) }
        do {
            try whole()
            lines.append("decode: accepted")
        } catch {
            lines.append("decode: " + refusal(error))
        }
        return lines.joined(separator: "\n")
    }

    /// Everything the current decoder says about `bytes`.
    static func current(_ bytes: [UInt8], _ c: Configuration) -> String {
        guard let mode = StrictCBOR.CBORMode(rawValue: c.mode) else { return "no mode \(c.mode)" }
        let limits = c.maxDepth.map { StrictCBOR.CBORLimits(maxDepth: $0) }
        let decoder = StrictCBOR.CBORDecoder(mode: mode, limits: limits, tagValidity: c.tagValidity)
        return report(
            first: {
                let (item, consumed) = try decoder.decodeFirst(bytes)
                let canonical = BinaryText.hex(StrictCBOR.CBOREncoder.canonical(item))
                return "first: consumed \(consumed), canonical \(canonical)\ndiagnostic \(item.diagnostic)"
            }, whole: { _ = try decoder.decode(bytes) },
            refusal: { error in
                (error as? StrictCBOR.CBORError).map { "\($0.code.rawValue) at \($0.offset): \($0.reason)" } ?? "\(error)"
            }) + "\nvalidate: " + validation(bytes, decoder)
    }

    /// Whether `validate` says what `decode` says about `bytes` ("same"), or
    /// both verdicts when they differ. The frozen copy has no `validate`: its
    /// report says "same", so any difference shows as one.
    static func validation(_ bytes: [UInt8], _ decoder: StrictCBOR.CBORDecoder) -> String {
        func verdict(_ body: () throws(StrictCBOR.CBORError) -> Void) -> String {
            do throws(StrictCBOR.CBORError) {
                try body()
                return "accepted"
            } catch {
                return "\(error.code.rawValue) at \(error.offset): \(error.reason)"
            }
        }
        let validated = verdict { () throws(StrictCBOR.CBORError) in try decoder.validate(bytes) }
        let decoded = verdict { () throws(StrictCBOR.CBORError) in _ = try decoder.decode(bytes) }
        return validated == decoded ? "same" : "validate \(validated), decode \(decoded)"
    }

    /// The same from the frozen copy.
    static func frozen(_ bytes: [UInt8], _ c: Configuration) -> String {
        guard let mode = StrictCBORFrozen.CBORMode(rawValue: c.mode) else { return "no mode \(c.mode)" }
        let limits = c.maxDepth.map { StrictCBORFrozen.CBORLimits(maxDepth: $0) }
        let decoder = StrictCBORFrozen.CBORDecoder(mode: mode, limits: limits, tagValidity: c.tagValidity)
        return report(
            first: {
                let (item, consumed) = try decoder.decodeFirst(bytes)
                let canonical = BinaryText.hex(StrictCBORFrozen.CBOREncoder.canonical(item))
                return "first: consumed \(consumed), canonical \(canonical)\ndiagnostic \(item.diagnostic)"
            }, whole: { _ = try decoder.decode(bytes) },
            refusal: { error in
                (error as? StrictCBORFrozen.CBORError).map { "\($0.code.rawValue) at \($0.offset): \($0.reason)" } ?? "\(error)"
            }) + "\nvalidate: same"
    }

    /// Every CBOR input the project has, by source.
    static let sources: [String: [[UInt8]]] = {
        var sources: [String: [[UInt8]]] = [:]
        for harness in ["FuzzCBOR", "FuzzCBORCTAP2", "FuzzCBORDeterministic", "FuzzCBORDifferential"] {
            let folder = Locations.fuzz.appendingPathComponent("Corpus/\(harness)")
            sources["corpus \(harness)"] = Locations.files(in: folder).compactMap { try? [UInt8](Data(contentsOf: $0)) }
        }
        for folder in ["cbor", "app-attest"] {
            var found: [[UInt8]] = []
            for file in Locations.files(in: Locations.fixtures.appendingPathComponent(folder)) {
                guard let data = try? Data(contentsOf: file), let json = try? JSONDecoder().decode(JSONValue.self, from: data) else {
                    continue
                }
                collect(json, into: &found)
            }
            sources["fixtures \(folder)"] = found
        }
        if let data = Locations.external("cbor/rfc8949-appendix-a.json"),
            let entries = (try? JSONDecoder().decode(JSONValue.self, from: data))?.arrayValue
        {
            sources["rfc8949 appendix a"] = entries.compactMap { $0["hex"]?.stringValue.flatMap { BinaryText.hex($0) } }
        }
        sources["cbor working group"] = WorkingGroupVectors.cases.map(\.encoded)
        sources["generated"] = generated
        return sources
    }()

    /// Inputs for the pass's own paths: documents whose open items, tape
    /// entries or logged keys outgrow the stack memory the pass starts in
    /// (16, 64 and 48), keys that are not canonical leaves after many tape
    /// entries, and strings in every head width, short form or not, ASCII
    /// or not, whole or cut short (the string fast path and its fallback).
    static let generated: [[UInt8]] = {
        var inputs: [[UInt8]] = []
        // Maps nested five deep, 15 small-integer keys each before the key
        // of the next map: 75 keys logged at once. Variants repeat a key of
        // the innermost map, or of the outermost after the inner ones close.
        func nestedMaps(_ level: Int, repeatInner: Bool, repeatOuter: Bool) -> [UInt8] {
            var out: [UInt8] = [0xB8, 17]
            for key in 0..<15 { out += [UInt8(key), 0xF6] }
            let value: [UInt8] = level == 1 ? [0x00] : nestedMaps(level - 1, repeatInner: repeatInner, repeatOuter: false)
            out += [0x18, 0x20]
            out += value
            let last: UInt8 = (repeatInner && level == 1) || repeatOuter ? 0x03 : 0x18
            out += last == 0x03 ? [0x03, 0xF5] : [0x18, 0x21, 0xF5]
            return out
        }
        for (inner, outer) in [(false, false), (true, false), (false, true)] {
            inputs.append(nestedMaps(5, repeatInner: inner, repeatOuter: outer))
        }
        // Nesting past 16 open items, to 40 and past the default depth.
        for depth in [15, 16, 17, 40, 65] { inputs.append([UInt8](repeating: 0x81, count: depth) + [0x00]) }
        // More than 64 tape entries: an array of 100 one-item arrays and tags.
        var hundred: [UInt8] = [0x98, 100]
        for index in 0..<100 { hundred += index % 2 == 0 ? [0x81, UInt8(index % 24)] : [0xC1, 0x00] }
        inputs.append(hundred)
        // After 70 tape entries, a map of 20 array keys (canonicalized, then
        // a hash set), once distinct and once with a key repeated in a longer head.
        for repeated in [false, true] {
            var map: [UInt8] = [0xB4]
            for key in 0..<20 {
                let element: [UInt8] = repeated && key == 19 ? [0x18, 0x05] : [UInt8(key)]
                map += [0x82, 0x81] + element + [0x01, 0x00]
            }
            var document: [UInt8] = [0x82, 0x98, 70]
            for _ in 0..<70 { document += [0x81, 0x00] }
            inputs.append(document + map)
        }
        // Strings: each head width, shortest or not, ASCII or not, whole or cut.
        let payloads: [[UInt8]] = [
            [], [0x61], [0x61, 0x62, 0x63], [0xC3, 0xA9], [0xFF, 0x61], Array(repeating: 0x61, count: 30),
            Array(repeating: 0x62, count: 300),
        ]
        for major: UInt8 in [0x40, 0x60] {
            for payload in payloads {
                let n = payload.count
                var heads: [[UInt8]] = [
                    [major | 24, UInt8(truncatingIfNeeded: n)],
                    [major | 25, UInt8(n >> 8), UInt8(truncatingIfNeeded: n)],
                    [major | 26, 0, 0, UInt8(n >> 8), UInt8(truncatingIfNeeded: n)],
                ]
                if n < 24 { heads.append([major | UInt8(n)]) }
                for head in heads where n < 256 || head.count > 2 {
                    inputs.append(head + payload)
                    var inMap: [UInt8] = [0xA1]
                    inMap += head
                    inMap += payload
                    inMap.append(0x00)
                    inputs.append(inMap)
                    if n > 0 { inputs.append(head + payload.dropLast()) }
                }
            }
        }
        inputs += quickValidationInputs
        return inputs
    }()

    /// Inputs for the edges of `CBORDecoder.validate`'s quick path
    /// (`QuickValidation`): maps of 16 and 17 pairs, duplicates among every
    /// kind of key it compares and the kinds it leaves to the full pass,
    /// 80 keys open at once (its log holds 64), nesting past its 32 frames,
    /// and the refusals it makes itself (counts and lengths beyond the
    /// limit or the input, heads cut short, depth), plus trailing bytes.
    static let quickValidationInputs: [[UInt8]] = {
        var inputs: [[UInt8]] = [
            [], [0x9B, 0x00, 0x00, 0x42, 0xFA, 0x42, 0xFA, 0x42, 0xFA, 0x42],
            [0xBB, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01], [0x9A, 0x00, 0x02, 0x00, 0x01],
            [0x83, 0x01, 0x02], [0xA2, 0x01, 0x02, 0x03], [0x5A, 0xFF, 0xFF, 0xFF, 0x00, 0x00],
            [0x19, 0x01], [0x82, 0x19], [0x00, 0x00], [0xA1, 0x00, 0x00, 0xFF], [0xF8, 0x1F], [0xF8, 0x20],
            [0xC1, 0xC1, 0x00], [0x1C], [0xA1, 0xC1, 0x00, 0x00], [0xA1, 0x80, 0x00], [0x5F, 0x41, 0x00, 0xFF],
        ]
        func text(_ string: String) -> [UInt8] { [0x60 | UInt8(string.utf8.count)] + Array(string.utf8) }
        // Maps of 16 and 17 text keys, distinct or with the last repeating the first.
        for pairs in [16, 17] {
            for repeated in [false, true] {
                var map: [UInt8] = [0xA0 + UInt8(pairs)]
                for key in 0..<pairs { map += text(repeated && key == pairs - 1 ? "k0" : "k\(key)") + [0xF6] }
                inputs.append(map)
            }
        }
        // Pairs of keys, each in a one-pair-then-another map: the same key
        // twice, or two keys the full pass takes as equal or not.
        let keys: [[UInt8]] = [
            [0x01], [0x18, 0x01], [0x18, 0x18], [0x19, 0x00, 0x18], [0x20], [0x38, 0x20],
            [0xF4], [0xF7], [0xF8, 0x20], [0xF9, 0x3C, 0x00], [0xFA, 0x3F, 0x80, 0x00, 0x00],
            text(""), text("é"), text("aaaaaaaaaa"), text("aaaaaaaaab"), [0x40], [0x41, 0x61], [0x58, 0x01, 0x61],
            [0x1B, 0, 0, 0, 1, 0, 0, 0, 0], [0x1B, 0, 0, 0, 0, 0, 0, 0, 1], [0x7F, 0x61, 0x61, 0xFF], [0xC1, 0x01],
        ]
        for first in keys {
            for second in keys { inputs.append([0xA2] + first + [0x00] + second + [0x00]) }
        }
        // Keys inside values inside maps: the inner map's keys are dropped when it closes.
        inputs.append([0xA2, 0x01, 0xA1, 0x02, 0x00, 0x02, 0x00])
        inputs.append([0xA2, 0x01, 0xA1, 0x02, 0x00, 0x01, 0x00])
        inputs.append([0xA2, 0x01, 0x81, 0xA2, 0x01, 0x00, 0x01, 0x00, 0x02, 0x00])
        // Five maps of 16 pairs nested: 80 keys open at once.
        func nested(_ level: Int, repeatInner: Bool) -> [UInt8] {
            var out: [UInt8] = [0xB0]
            for key in 0..<15 { out += [0x18, UInt8(24 + key), 0x00] }
            out += [0x18, 0x40]
            out +=
                level == 1
                ? [repeatInner ? 0xA2 : 0xA1, 0x01, 0x00] + (repeatInner ? [0x01, 0x00] : []) : nested(level - 1, repeatInner: repeatInner)
            return out
        }
        inputs += [nested(5, repeatInner: false), nested(5, repeatInner: true)]
        // Nesting at and past its 32 frames, with tags and maps among the arrays.
        for depth in [31, 32, 33, 63, 64] {
            var deep: [UInt8] = []
            for level in 0..<depth { deep += level % 3 == 0 ? [0xC6] : level % 3 == 1 ? [0xA1, 0x00] : [0x81] }
            inputs.append(deep + [0x00])
        }
        return inputs
    }()

    /// CBOR in a vector file: hex under keys ending in `Hex`, base64 App
    /// Attest objects (`attestationObject`, `assertion`).
    static func collect(_ json: JSONValue, into found: inout [[UInt8]]) {
        switch json {
        case .object(let members):
            for (key, value) in members {
                if key.hasSuffix("Hex"), let hex = value.stringValue, let bytes = BinaryText.hex(hex) {
                    found.append(bytes)
                } else if key == "attestationObject" || key == "assertion", let text = value.stringValue,
                    let bytes = BinaryText.base64(text)
                {
                    found.append(bytes)
                } else {
                    collect(value, into: &found)
                }
            }
        case .array(let items):
            for item in items { collect(item, into: &found) }
        default:
            break
        }
    }

    /// SplitMix64: the mutations are the same on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `count` mutants of the seeds: a byte replaced, a bit flipped, a byte
    /// inserted or removed, the input cut short, or a slice repeated.
    static func mutants(of seeds: [[UInt8]], count: Int) -> [[UInt8]] {
        let pool = seeds.filter { !$0.isEmpty && $0.count <= 4096 }
        guard !pool.isEmpty else { return [] }
        var random = Seeded(state: 30)
        return (0..<count).map { _ in
            var bytes = pool[Int(random.next() % UInt64(pool.count))]
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 6 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes[at] ^= 1 << (random.next() % 8)
            case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            case 3: bytes.remove(at: at)
            case 4: bytes.removeSubrange(at...)
            default: bytes.insert(contentsOf: bytes[at...].prefix(8), at: at)
            }
            return bytes
        }
    }

    /// Each source is read, and no source is empty.
    @Test func everySourceIsRead() {
        for name in [
            "corpus FuzzCBOR", "corpus FuzzCBORCTAP2", "corpus FuzzCBORDeterministic", "corpus FuzzCBORDifferential",
            "fixtures cbor", "fixtures app-attest", "generated",
        ] {
            #expect((Self.sources[name]?.count ?? 0) > 10, "\(name): \(Self.sources[name]?.count ?? 0) inputs")
        }
        if Locations.externalAvailable {
            #expect((Self.sources["rfc8949 appendix a"]?.count ?? 0) > 80)
            #expect((Self.sources["cbor working group"]?.count ?? 0) == 1_381)
        }
    }

    static var sourceNames: [String] {
        [
            "corpus FuzzCBOR", "corpus FuzzCBORCTAP2", "corpus FuzzCBORDeterministic",
            "corpus FuzzCBORDifferential", "fixtures cbor", "fixtures app-attest",
            "rfc8949 appendix a", "cbor working group", "generated", "mutants",
        ]
    }

    /// The inputs of `source`: one of ``sources``, or 4,000 seeded mutants of them all.
    static func inputs(of source: String) -> [[UInt8]] {
        source == "mutants" ? mutants(of: sources.values.flatMap { $0 }, count: 4_000) : sources[source] ?? []
    }

    /// The two decoders agree on every input of `source` in every configuration.
    @Test(arguments: sourceNames)
    func sameResults(_ source: String) async {
        let differences = await Self.differences(in: Self.inputs(of: source), pace: Pace())
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(5).joined(separator: "\n"))")
    }

    /// Where the two decoders differ on `inputs`: the suite's heaviest loop
    /// (4,000 mutants, each in every configuration), paced one input per
    /// step so that it gives its thread back (``Pace``).
    static func differences(in inputs: [[UInt8]], pace: Pace) async -> [String] {
        var differences: [String] = []
        for bytes in inputs {
            await pace.step()
            for configuration in configurations {
                let now = current(bytes, configuration)
                let before = frozen(bytes, configuration)
                if now != before {
                    differences.append(
                        "\(BinaryText.hex(Array(bytes.prefix(48)))) [\(configuration)]\n  now:    \(now)\n  before: \(before)")
                }
            }
        }
        return differences
    }
}
