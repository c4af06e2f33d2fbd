import PropertyBased
import StrictCBOR
import Testing
import TestSupport

/// Builds a CBOR value from a byte "program", so that swift-property-based
/// generates and shrinks values through a plain byte array. Maps come out
/// sorted by encoded key with distinct keys, strings definite, floats
/// non-NaN: the shape the canonical encoder preserves exactly.
struct ValueBuilder {
    var bytes: [UInt8]
    var index = 0

    mutating func next() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func next64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { acc, _ in acc << 8 | UInt64(next()) }
    }

    mutating func build(depth: Int = 0) -> CBORValue {
        let choice = next() % (depth >= 6 ? 9 : 12)
        switch choice {
        case 0: return .unsigned(UInt64(next()))
        case 1: return .unsigned(next64())
        case 2: return .negative(next64() >> (next() % 64))
        case 3: return .bytes((0..<Int(next() % 20)).map { _ in next() })
        case 4:
            return .text(
                String(decoding: (0..<Int(next() % 12)).map { _ in next() % 0x5E + 0x20 }, as: UTF8.self) + (next() % 3 == 0 ? "é水𐅑" : ""))
        case 5: return [.bool(true), .bool(false), .null, .undefined][Int(next() % 4)]
        case 6:
            let n = next()
            return .simple(n < 24 ? n % 20 : max(n, 32))
        case 7:
            let d = Double(bitPattern: next64())
            return .float(d.isNaN ? Double(next()) / 8 : d)
        case 8: return .float([0.0, -0.0, 1.5, 65504, 100000, .infinity, -.infinity, 0x1p-24][Int(next() % 8)])
        case 9: return .array((0..<Int(next() % 5)).map { _ in build(depth: depth + 1) })
        case 10:
            var seen = Set<[UInt8]>()
            var entries: [(key: [UInt8], entry: CBORMapEntry)] = []
            for _ in 0..<Int(next() % 5) {
                let key = build(depth: depth + 1)
                let value = build(depth: depth + 1)
                let encoded = CBOREncoder.canonical(key)
                if seen.insert(encoded).inserted { entries.append((encoded, CBORMapEntry(key, value))) }
            }
            entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
            return .map(entries.map(\.entry), indefinite: false)
        default: return .tag(UInt64(next()), build(depth: depth + 1))
        }
    }
}

@Suite struct PropertyTests {
    static let program = Gen.uint8().array(of: 0...160)
    static let noise = Gen.uint8().array(of: 0...48)

    /// decode(encode(v)) == v for generated values, in deterministic mode.
    @Test func encodeDecodeIsIdentity() async {
        let pace = Pace()
        await propertyCheck(count: 2000, input: Self.program) { program throws in
            await pace.step()
            var builder = ValueBuilder(bytes: program)
            let value = builder.build()
            let encoded = CBOREncoder.canonical(value)
            let decoded = try CBORDecoder(mode: .deterministic).decode(encoded)
            #expect(try decoded.value == value)
            #expect(CBOREncoder.canonical(decoded) == encoded)
            #expect(decoded.encodedBytes.elementsEqual(encoded))
        }
    }

    /// Canonical bytes re-encode to themselves, and the deterministic decoder
    /// accepts random bytes only when they are canonical already.
    @Test func canonicalBytesReencodeToThemselves() async {
        let pace = Pace()
        await propertyCheck(count: 3000, input: Self.noise) { bytes in
            await pace.step()
            if let value = try? CBORDecoder(mode: .deterministic).decode(bytes) {
                #expect(CBOREncoder.canonical(value) == bytes)
            }
        }
        await propertyCheck(count: 1000, input: Self.program) { program throws in
            await pace.step()
            var builder = ValueBuilder(bytes: program)
            let canonical = CBOREncoder.canonical(builder.build())
            let value = try CBORDecoder(mode: .deterministic).decode(canonical)
            #expect(CBOREncoder.canonical(value) == canonical)
        }
    }

    /// Random bytes never trap and every error points inside the input; the
    /// fuzz oracle's properties hold.
    @Test func randomBytesNeverTrap() async {
        let pace = Pace()
        await propertyCheck(count: 5000, input: Self.noise) { bytes in
            await pace.step()
            for mode in CBORMode.allCases {
                do throws(CBORError) {
                    _ = try CBORDecoder(mode: mode).decodeFirst(bytes)
                } catch {
                    #expect((0...bytes.count).contains(error.offset))
                }
            }
        }
    }

    /// Single-byte changes, truncations and insertions in valid encodings
    /// never trap; whatever still decodes satisfies the mode nesting.
    @Test func mutatedBytesNeverTrap() async {
        let pace = Pace()
        await propertyCheck(count: 3000, input: Self.program, Gen.uint8(), Gen.uint8()) { program, position, byte in
            await pace.step()
            var builder = ValueBuilder(bytes: program)
            let encoded = CBOREncoder.canonical(builder.build())
            let at = Int(position) % max(1, encoded.count)
            var flipped = encoded
            if !flipped.isEmpty { flipped[at] ^= max(byte, 1) }
            var inserted = encoded
            inserted.insert(byte, at: min(at, inserted.count))
            let truncated = Array(encoded.prefix(at))
            for mutant in [flipped, inserted, truncated] {
                var wellFormed: CBORItem? = nil
                for mode in CBORMode.allCases {
                    let value = try? CBORDecoder(mode: mode).decode(mutant)
                    if mode == .wellFormed { wellFormed = value }
                    // Compared by encoding: NaN != NaN under ==.
                    if let value, mode != .wellFormed {
                        #expect(wellFormed.map { CBOREncoder.canonical($0) } == CBOREncoder.canonical(value))
                    }
                }
            }
            // CBOR is prefix-free: a strict prefix of one item is never an item.
            #expect(throws: CBORError.self) { try CBORDecoder().decode(truncated) }
        }
    }
}
