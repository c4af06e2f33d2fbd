import ConformanceKit
import VectorContract
@testable import StrictCBOR
import Testing
import TrustSuiteSupport

/// The tape-backed view: values read on demand from the input, the tape
/// holding entries for structural items only, and the wellFormed key log.
@Suite struct ItemViewTests {
    func decode(_ hex: String, _ mode: CBORMode = .wellFormed) throws -> CBORItem {
        try CBORDecoder(mode: mode).decode(try #require(BinaryText.hex(hex)))
    }

    @Test func integersAndOverflow() throws {
        #expect(try decode("17").int64Value() == 23)
        #expect(try decode("3903e7").int64Value() == -1000)
        #expect(try decode("3b7fffffffffffffff").int64Value() == Int64.min)
        #expect(throws: CBORError(.integerOverflow, at: 0)) { try decode("1b8000000000000000").int64Value() }
        #expect(throws: CBORError(.integerOverflow, at: 0)) { try decode("3b8000000000000000").int64Value() }
        #expect(try decode("40").int64Value() == nil)
    }

    @Test func stringsDefiniteAndChunked() throws {
        let bytes = try decode("5f42010243030405ff")
        #expect(bytes.isIndefinite)
        #expect(bytes.bytesValue == [1, 2, 3, 4, 5])
        #expect(bytes.stringChunks?.map(Array.init) == [[1, 2], [3, 4, 5]])
        #expect(bytes.byteSlice == nil)
        #expect(bytes.textValue == nil)
        let text = try decode("7f657374726561646d696e67ff")
        #expect(text.textValue == "streaming")
        #expect(try decode("6449455446").textValue == "IETF")
        #expect(try decode("43010203").byteSlice.map(Array.init) == [1, 2, 3])
        #expect(try decode("5fff").bytesValue == [])
    }

    @Test func arraysAndMapsAreWalkedInOrder() throws {
        // [1, [2, 3], {"a": [4]}, h'05', 6]
        let array = try #require(try decode("8501820203a161618104410506").arrayValue)
        #expect(array.count == 5)
        let items = Array(array)
        #expect(items.map(\.majorType) == [0, 4, 5, 2, 0])
        #expect(try items[4].int64Value() == 6)
        #expect(items[1].arrayValue.map { $0.compactMap { try? $0.int64Value() } } == [2, 3])
        #expect(items[2]["a"]?.diagnostic == "[4]")
        #expect(items[2]["b"] == nil)
        #expect(items[3].bytesValue == [5])
        // Indefinite containers count their items.
        let indefinite = try decode("9f01829f02ff03bf6161f5ffff")
        #expect(indefinite.arrayValue?.count == 3)
        #expect(indefinite.diagnostic == "[_ 1, [[_ 2], 3], {_ \"a\": true}]")
        let map = try #require(try decode("a3016161200a6162f6").mapValue)
        #expect(map.count == 3)
        #expect(map[1]?.textValue == "a")
        #expect(try map[-1]?.int64Value() == 10)
        #expect(map["b"].map { if case .null = $0.content { return true } else { return false } } == true)
    }

    @Test func decodeFirstOverASliceKeepsRelativeOffsets() throws {
        let input: [UInt8] = [0xAA, 0xBB, 0x82, 0x01, 0x41, 0x07, 0x99]
        let (item, consumed) = try CBORDecoder(mode: .ctap2).decodeFirst(input[2...])
        #expect(consumed == 4)
        #expect(item.encodedRange == 0..<4)
        #expect(Array(item.encodedBytes) == [0x82, 0x01, 0x41, 0x07])
        #expect(item.arrayValue.map(Array.init)?.last?.bytesValue == [0x07])
        #expect(throws: CBORError(.trailingBytes, at: 4)) { try CBORDecoder(mode: .ctap2).decode(input[2...]) }
    }

    @Test func theTapeHoldsOnlyStructuralItems() throws {
        // 1,000 arrays of 1,000 small integers: one entry per array plus the outer one.
        var bytes: [UInt8] = [0x99, 0x03, 0xE8]
        for _ in 0..<1000 { bytes += [0x99, 0x03, 0xE8] + [UInt8](repeating: 0x07, count: 1000) }
        let item = try CBORDecoder(mode: .wellFormed).decode(bytes)
        #expect(item.storage.tapeCount == 1001)
        let sum = item.arrayValue?.reduce(0) { total, inner in
            total + (inner.arrayValue?.reduce(0) { $0 + ((try? $1.int64Value()) ?? 0) } ?? 0)
        }
        #expect(sum == 7_000_000)
        // Leaves and empty definite containers need no entry at all.
        #expect(try CBORDecoder().decode([0x83, 0x80, 0xA0, 0x40]).storage.tapeCount == 1)
        #expect(try CBORDecoder().decode([0x01]).storage.tapeCount == 0)
    }

    @Test func treeConversionAndEncodingAgree() throws {
        let hexes = ["a2616101616282f93e00c11a514b67b0", "9f5f4101ff7f6161ff80a0ff", "d9d9f7a1f4f7", "fb3ff199999999999a"]
        for hex in hexes {
            let item = try decode(hex)
            #expect(try item.value.diagnostic == item.diagnostic)
            #expect(CBOREncoder.canonical(try item.value) == CBOREncoder.canonical(item))
        }
    }

    /// wellFormed duplicate keys are found among small maps (compared one by
    /// one) and large ones (hash set), through canonical forms, with nested
    /// maps' keys kept apart from their parent's.
    @Test(arguments: [3, 16, 17, 40])
    func duplicateKeysInMapsOfEverySize(_ pairs: Int) throws {
        func map(_ keys: [[UInt8]]) -> [UInt8] {
            var out: [UInt8] = [0xB8, UInt8(keys.count)]
            for key in keys { out += key + [0xF6] }
            return out
        }
        var keys = (0..<(pairs - 1)).map { CBOREncoder.canonical(.unsigned(UInt64($0) + 100)) }
        // Distinct keys, one of them a map whose own keys repeat the parent's.
        keys.append([0xA1, 0x18, 0x64, 0x00])
        #expect((try? CBORDecoder().decode(map(keys))) != nil)
        // The same key in a longer head (18 64 vs 18 64 is exact; 19 0064 is not minimal).
        var repeated = keys
        repeated[pairs - 1] = [0x19, 0x00, 0x64]
        #expect(throws: CBORError(.duplicateMapKey, at: 2 + offsetOfLastKey(repeated))) {
            try CBORDecoder().decode(map(repeated))
        }
        // A float key equal in value to an earlier float key in another width.
        var floats = keys
        floats[0] = [0xF9, 0x3E, 0x00]
        floats[pairs - 1] = [0xFA, 0x3F, 0xC0, 0x00, 0x00]
        #expect(throws: CBORError(.duplicateMapKey, at: 2 + offsetOfLastKey(floats))) {
            try CBORDecoder().decode(map(floats))
        }
    }

    /// Maps used as keys of maps, nested to the depth limit: each level's
    /// key is put in canonical form from the tape the pass already built, so
    /// the work grows with the depth rather than doubling per level (the
    /// earlier re-decoding of each key never finished on this input).
    @Test func keysNestedInKeysToTheDepthLimit() throws {
        let depth = CBORLimits.defaultMaxDepth - 2
        func nested(_ level: Int, leaf: [UInt8]) -> [UInt8] {
            level == 0 ? leaf : [0xA1] + nested(level - 1, leaf: leaf) + [0xF6]
        }
        let loose = nested(depth, leaf: [0x19, 0x00, 0x01])  // 1 in a three-byte head
        let tight = nested(depth, leaf: [0x01])
        let single = try CBORDecoder().decode([0xA1] + loose + [0x00])
        let key = try #require(single.mapValue.flatMap { Array($0).first?.key })
        #expect(CBOREncoder.canonical(key) == tight)
        #expect(throws: CBORError(.duplicateMapKey, at: 1 + loose.count + 1)) {
            try CBORDecoder().decode([0xA2] + loose + [0x00] + tight + [0x01])
        }
        #expect(
            try CBORDecoder().decode([0xA2] + loose + [0x00] + nested(depth, leaf: [0x02]) + [0x01])
                .mapValue?.count == 2)
    }

    /// Offset, after the map head, of the last key of `map(keys)`.
    func offsetOfLastKey(_ keys: [[UInt8]]) -> Int {
        keys.dropLast().reduce(0) { $0 + $1.count + 1 }
    }
}
