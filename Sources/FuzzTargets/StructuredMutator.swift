#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppAttest
import AppAttestGenerator
import Crypto
import Foundation
import StrictCBOR
import TestPKI

/// The structure-aware mutator of `FuzzAttestationStructured`: it decodes
/// an attestation object, changes one field — the authenticator data's
/// bytes, flags, counter, aaguid, credential id or COSE key, an x5c
/// certificate, the receipt, the format, or the maps' keys — and encodes
/// the result canonically, so nearly every input it makes is an attestation
/// object the verifier reads to the end. After a change to the
/// authenticator data it sometimes issues a fresh credential certificate
/// whose nonce covers it (the test CA's), so the checks after the nonce are
/// reached too. Inputs that do not decode start again from the baseline
/// (the test CA's attestation of the vector key).
public enum StructuredAttestation {
    /// The fields the mutator changes, one per call.
    public enum Field: Int, CaseIterable, Sendable {
        case authDataBytes, flags, counter, aaguid, credentialId, coseKey, certificate, receipt, format, keys
    }

    /// libFuzzer's own byte mutator when the harness runs under it
    /// (`LLVMFuzzerMutate`), found at run time; nil under `swift test`.
    static let libFuzzerMutate: (@convention(c) (UnsafeMutablePointer<UInt8>?, Int, Int) -> Int)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "LLVMFuzzerMutate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<UInt8>?, Int, Int) -> Int).self)
    }()

    /// The baseline: the test CA's attestation of the vector credential key.
    static let baseline: [UInt8] = {
        guard let ca = FuzzWorld.ca, let key = FuzzWorld.credentialKey,
            let made = try? ca.attest(
                SoftwareCA.AttestationRequest(
                    credentialKey: key, appId: FuzzWorld.appId, environment: FuzzWorld.environment,
                    clientDataHash: FuzzWorld.clientDataHash, notBefore: FuzzWorld.now.addingTimeInterval(-86_400),
                    notAfter: FuzzWorld.now.addingTimeInterval(2 * 86_400), token: [UInt8](repeating: 7, count: 16)))
        else { return [] }
        return made.object
    }()

    /// A small deterministic generator (SplitMix64) seeded by libFuzzer
    /// (and by the debug-build fuzz smoke of the tests).
    package struct Random: RandomNumberGenerator {
        var state: UInt64
        package init(state: UInt64) { self.state = state }
        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    }

    /// One mutation of `bytes` (at most `maxSize` bytes come back).
    public static func mutate(_ bytes: [UInt8], maxSize: Int, seed: UInt32) -> [UInt8] {
        var random = Random(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
        let start: [UInt8] = (try? CBORDecoder(mode: .wellFormed).decode(bytes)).map { _ in bytes } ?? baseline
        guard let decoded = try? CBORDecoder(mode: .wellFormed).decode(start), var top = (try? CBORValue(decoded))?.mapEntries else {
            return fitted(bytes, maxSize: maxSize, random: &random)
        }
        let field = Field.allCases[random.below(Field.allCases.count)]
        mutate(field, in: &top, random: &random)
        let encoded = CBOREncoder.canonical(.map(top, indefinite: false))
        return encoded.count <= maxSize ? encoded : fitted(bytes, maxSize: maxSize, random: &random)
    }

    /// Byte-level mutation, limited to `maxSize`.
    static func fitted(_ bytes: [UInt8], maxSize: Int, random: inout Random) -> [UInt8] {
        var copy = Array(bytes.prefix(maxSize))
        bytesMutated(&copy, maxSize: maxSize, random: &random)
        return copy
    }

    /// Changes `field` of the top-level map `top`.
    static func mutate(_ field: Field, in top: inout [CBORMapEntry], random: inout Random) {
        switch field {
        case .authDataBytes, .flags, .counter, .aaguid, .credentialId, .coseKey:
            var authData = value(of: "authData", in: top)?.bytesValue ?? []
            mutateAuthenticatorData(field, &authData, random: &random)
            set("authData", .bytes(authData), in: &top)
            // Now and then a certificate whose nonce covers the new bytes.
            if random.below(4) == 0, let ca = FuzzWorld.ca, let key = FuzzWorld.credentialKey,
                let leaf = try? ca.credentialCertificate(
                    authData: authData, clientDataHash: FuzzWorld.clientDataHash, key: key.publicKey,
                    notBefore: FuzzWorld.now.addingTimeInterval(-86_400), notAfter: FuzzWorld.now.addingTimeInterval(2 * 86_400))
            {
                updateStatement(in: &top) { statement in
                    var chain = value(of: "x5c", in: statement)?.arrayValue ?? []
                    if chain.isEmpty { chain = [.bytes(leaf)] } else { chain[0] = .bytes(leaf) }
                    set("x5c", .array(chain), in: &statement)
                }
            }
        case .certificate:
            updateStatement(in: &top) { statement in
                var chain = value(of: "x5c", in: statement)?.arrayValue ?? []
                switch random.below(5) {
                case 0 where !chain.isEmpty: chain.remove(at: random.below(chain.count))
                case 1 where chain.count >= 2: chain.swapAt(0, 1)
                case 2 where !chain.isEmpty: chain.append(chain[random.below(chain.count)])
                default:
                    guard !chain.isEmpty else { chain = [.bytes([0x30, 0x00])]; break }
                    let index = random.below(chain.count)
                    var der = chain[index].bytesValue ?? []
                    bytesMutated(&der, maxSize: der.count + 16, random: &random)
                    chain[index] = .bytes(der)
                }
                set("x5c", .array(chain), in: &statement)
            }
        case .receipt:
            updateStatement(in: &top) { statement in
                var receipt = value(of: "receipt", in: statement)?.bytesValue ?? []
                if random.below(8) == 0 { receipt = [] } else { bytesMutated(&receipt, maxSize: receipt.count + 16, random: &random) }
                set("receipt", .bytes(receipt), in: &statement)
            }
        case .format:
            let formats = ["apple-appattest", "apple", "packed", "none", "apple-appattest\u{0}", "APPLE-APPATTEST", ""]
            set("fmt", .text(formats[random.below(formats.count)]), in: &top)
        case .keys:
            let names = ["fmt", "attStmt", "authData", "x5c", "receipt", "extra"]
            let name = names[random.below(names.count)]
            if random.below(2) == 0 {
                if names.prefix(3).contains(name) {
                    top.removeAll { $0.key.textValue == name }
                } else {
                    updateStatement(in: &top) { $0.removeAll { $0.key.textValue == name } }
                }
            } else if random.below(2) == 0 {
                top.append(CBORMapEntry(.text(name), .int(Int64(random.below(3)))))
            } else {
                updateStatement(in: &top) { $0.append(CBORMapEntry(.text(name), .bytes([random.byte()]))) }
            }
            // Duplicate keys would not encode canonically: keep the first of each.
            top = unique(top)
        }
    }

    /// The authenticator data's fields at their offsets: flags 32, counter
    /// 33..<37, aaguid 37..<53, id length 53..<55, id, COSE key.
    static func mutateAuthenticatorData(_ field: Field, _ data: inout [UInt8], random: inout Random) {
        switch field {
        case .flags where data.count > 32:
            data[32] = random.below(2) == 0 ? data[32] ^ (1 << UInt8(random.below(8))) : random.byte()
        case .counter where data.count >= 37:
            let values: [UInt32] = [0, 1, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32(truncatingIfNeeded: random.next())]
            let counter = values[random.below(values.count)]
            for index in 0..<4 { data[33 + index] = UInt8(truncatingIfNeeded: counter >> (24 - 8 * UInt32(index))) }
        case .aaguid where data.count >= 53:
            let choices = AppAttestEnvironment.allCases.map(\.aaguid) + [[UInt8](repeating: 0, count: 16)]
            var aaguid = choices[random.below(choices.count)]
            if random.below(3) == 0 { aaguid[random.below(16)] ^= 1 }
            data.replaceSubrange(37..<53, with: aaguid)
        case .credentialId where data.count >= 55:
            let length = Int(data[53]) << 8 | Int(data[54])
            let end = min(data.count, 55 + length)
            switch random.below(3) {
            case 0:
                let lengths = [0, 1, 31, 32, 33, 64, 1023, 1024, 0xFFFF, length + 1, max(0, length - 1)]
                let newLength = lengths[random.below(lengths.count)]
                data[53] = UInt8(truncatingIfNeeded: newLength >> 8)
                data[54] = UInt8(truncatingIfNeeded: newLength)
            case 1 where end > 55:
                data[55 + random.below(end - 55)] ^= 1 << UInt8(random.below(8))
            default:
                data.replaceSubrange(55..<end, with: (0..<random.below(40)).map { _ in random.byte() })
                let newLength = end - 55
                data[53] = UInt8(truncatingIfNeeded: newLength >> 8)
                data[54] = UInt8(truncatingIfNeeded: newLength)
            }
        case .coseKey where data.count >= 55:
            let start = min(data.count, 55 + (Int(data[53]) << 8 | Int(data[54])))
            guard let (item, used) = try? CBORDecoder(mode: .wellFormed).decodeFirst(data[start...]),
                var entries = (try? CBORValue(item))?.mapEntries
            else {
                var tail = Array(data[start...])
                bytesMutated(&tail, maxSize: tail.count + 16, random: &random)
                data.replaceSubrange(start..., with: tail)
                return
            }
            let labels: [Int64] = [1, 3, -1, -2, -3, 2, -4]
            let label = labels[random.below(labels.count)]
            let values: [CBORValue] = [
                .int(2), .int(-7), .int(1), .int(3), .int(-35), .bytes([UInt8](repeating: 0, count: 32)),
                .bytes((0..<Int(random.below(66))).map { _ in random.byte() }), .text("x"), .null,
            ]
            entries.removeAll { (try? $0.key.int64Value()) == label }
            if random.below(4) != 0 { entries.append(CBORMapEntry(.int(label), values[random.below(values.count)])) }
            data.replaceSubrange(start..<(start + used), with: CBOREncoder.canonical(.map(entries, indefinite: false)))
        default:
            bytesMutated(&data, maxSize: data.count + 16, random: &random)
        }
    }

    /// libFuzzer's mutation of `bytes` when available, else a bit flip, a
    /// byte set, an insertion or a truncation.
    static func bytesMutated(_ bytes: inout [UInt8], maxSize: Int, random: inout Random) {
        let capacity = max(maxSize, bytes.count, 1)
        if let mutate = libFuzzerMutate {
            var buffer = bytes + [UInt8](repeating: 0, count: capacity - bytes.count)
            let size = buffer.withUnsafeMutableBufferPointer { mutate($0.baseAddress, bytes.count, capacity) }
            bytes = Array(buffer.prefix(min(max(size, 0), capacity)))
            return
        }
        guard !bytes.isEmpty else { bytes = [random.byte()]; return }
        let index = random.below(bytes.count)
        switch random.below(4) {
        case 0: bytes[index] ^= 1 << UInt8(random.below(8))
        case 1: bytes[index] = random.byte()
        case 2 where bytes.count < capacity: bytes.insert(random.byte(), at: index)
        default: bytes.removeSubrange(index...)
        }
    }

    static func value(of key: String, in map: [CBORMapEntry]) -> CBORValue? {
        map.first { $0.key.textValue == key }?.value
    }

    static func set(_ key: String, _ value: CBORValue, in map: inout [CBORMapEntry]) {
        if let index = map.firstIndex(where: { $0.key.textValue == key }) {
            map[index].value = value
        } else {
            map.append(CBORMapEntry(.text(key), value))
        }
    }

    /// Applies `change` to the attStmt map (made when absent or not a map).
    static func updateStatement(in top: inout [CBORMapEntry], _ change: (inout [CBORMapEntry]) -> Void) {
        var statement = value(of: "attStmt", in: top)?.mapEntries ?? []
        change(&statement)
        set("attStmt", .map(unique(statement), indefinite: false), in: &top)
    }

    /// The entries with each key's first occurrence only.
    static func unique(_ map: [CBORMapEntry]) -> [CBORMapEntry] {
        var seen: [[UInt8]] = []
        return map.filter { entry in
            let key = CBOREncoder.canonical(entry.key)
            if seen.contains(key) { return false }
            seen.append(key)
            return true
        }
    }
}
