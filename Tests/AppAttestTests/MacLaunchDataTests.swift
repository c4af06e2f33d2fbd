import AppAttest
import ConformanceKit
import VectorContract
import Foundation
import StrictCBOR
import Testing
import TestSupport
import TrustSuiteSupport

/// macOS 27 launch data and the category's encoding (docs/models/app-attest.md,
/// macOS 27; The category's encoding): the two code-directory hash keys
/// read strictly, the allowlist policy, and the generated vectors that
/// carry them.
@Suite struct MacLaunchDataTests {
    static let hash32 = (0..<32).map { UInt8($0) }
    static var hash20: [UInt8] { Array(hash32.prefix(20)) }

    static func data(_ entries: [(String, CBORValue)]) throws -> LaunchData {
        try LaunchData(map: try CBORDecoder(mode: .ctap2).decode(CBOREncoder.canonical(.map(entries.map { (.text($0.0), $0.1) }))))
    }

    static func mac(type: CBORValue? = .bytes([2]), hash: CBORValue? = .bytes(hash32), category: UInt32 = 6) -> [(String, CBORValue)] {
        var entries: [(String, CBORValue)] = [
            (LaunchData.validationCategoryKey, .bytes(withUnsafeBytes(of: category.littleEndian, Array.init))),
            (LaunchData.bundleVersionKey, .text("1")),
        ]
        if let type { entries.append((LaunchData.codeDirectoryHashTypeKey, type)) }
        if let hash { entries.append((LaunchData.codeDirectoryHashKey, hash)) }
        return entries
    }

    // MARK: The keys

    @Test func macKeysAreReadAndExposed() throws {
        let data = try Self.data(Self.mac())
        #expect(data.validationCategory == 6 && data.bundleVersion == "1")
        #expect(data.codeDirectoryHashType == 2 && data.codeDirectoryHash == Self.hash32)
        #expect(data.otherKeys.isEmpty, "the hash keys are known keys, not other keys")
        #expect(data.shape == .macOS)
        let truncated = try Self.data(Self.mac(hash: .bytes(Self.hash20)))
        #expect(truncated.codeDirectoryHash == Self.hash20)
        // The iOS keys alone are the iOS shape, whatever the category.
        let withoutHash = try Self.data(Self.mac(type: nil, hash: nil))
        #expect(withoutHash.shape == .iOS && withoutHash.codeDirectoryHash == nil && withoutHash.codeDirectoryHashType == nil)
        #expect(try Self.data(Self.mac(type: nil)).shape == .macOS)
        #expect(try Self.data(Self.mac(hash: nil)).shape == .macOS)
    }

    /// Every size the hash may not have, and every other CBOR type, for both keys.
    @Test(
        arguments: [
            ("type of 0 bytes", mac(type: .bytes([]))), ("type of 2 bytes", mac(type: .bytes([0, 2]))),
            ("type as an integer", mac(type: .int(2))), ("type as text", mac(type: .text("2"))), ("type null", mac(type: .null)),
            ("hash of 0 bytes", mac(hash: .bytes([]))), ("hash of 19 bytes", mac(hash: .bytes(Array(hash32.prefix(19))))),
            ("hash of 21 bytes", mac(hash: .bytes(Array(hash32.prefix(21))))),
            ("hash of 31 bytes", mac(hash: .bytes(Array(hash32.prefix(31))))),
            ("hash of 33 bytes", mac(hash: .bytes(hash32 + [0]))), ("hash of 64 bytes", mac(hash: .bytes(hash32 + hash32))),
            ("hash as hex text", mac(hash: .text(BinaryText.hex(hash32)))), ("hash as an integer", mac(hash: .int(7))),
            ("hash in an array", mac(hash: .array([.bytes(hash32)]))), ("hash as a map", mac(hash: .map([(.text("k"), .int(1))]))),
        ] as [(String, [(String, CBORValue)])])
    func macKeysOfTheWrongTypeOrSizeAreMalformed(_ named: (String, [(String, CBORValue)])) async throws {
        #expect(await appAttestErrorCode { _ = try Self.data(named.1) } == .malformedAuthenticatorData, "\(named.0)")
    }

    @Test func every20Or32ByteHashAndEveryTypeByteIsRead() throws {
        for count in 0...40 {
            let bytes = [UInt8](repeating: 0xAB, count: count)
            let read = try? Self.data(Self.mac(hash: .bytes(bytes)))
            #expect((read != nil) == (count == 20 || count == 32), "\(count) bytes")
        }
        for type in UInt8.min...UInt8.max {
            #expect(try Self.data(Self.mac(type: .bytes([type]))).codeDirectoryHashType == type)
        }
    }

    @Test func hashTypeNamesAreInformational() {
        #expect(
            (0...5).map { LaunchData.codeDirectoryHashTypeName(UInt8($0)) } == [
                "unknown", "SHA-1", "SHA-256", "SHA-256 truncated", "SHA-384", "unknown",
            ])
    }

    // MARK: The allowlist

    static func code(_ policy: LaunchPolicy, _ data: LaunchData?) async -> AppAttestError.Code? {
        await appAttestErrorCode { try policy.check(data) }
    }

    @Test func allowlistMatchesExactlyOrByTheTruncatedPrefix() async throws {
        let other = [UInt8](repeating: 9, count: 32)
        let full = LaunchPolicy(allowedCodeDirectoryHashes: [other, Self.hash32])
        #expect(await Self.code(full, try Self.data(Self.mac())) == nil)
        // A 32-byte entry also matches its first 20 bytes…
        #expect(await Self.code(full, try Self.data(Self.mac(hash: .bytes(Self.hash20)))) == nil)
        // …but not its last 20, and a 20-byte entry matches only a 20-byte hash.
        #expect(await Self.code(full, try Self.data(Self.mac(hash: .bytes(Array(Self.hash32.suffix(20)))))) == .codeDirectoryHashNotAllowed)
        let truncated = LaunchPolicy(allowedCodeDirectoryHashes: [Self.hash20])
        #expect(await Self.code(truncated, try Self.data(Self.mac(hash: .bytes(Self.hash20)))) == nil)
        #expect(await Self.code(truncated, try Self.data(Self.mac())) == .codeDirectoryHashNotAllowed)
        #expect(
            await Self.code(LaunchPolicy(allowedCodeDirectoryHashes: [other]), try Self.data(Self.mac())) == .codeDirectoryHashNotAllowed)
        #expect(await Self.code(LaunchPolicy(allowedCodeDirectoryHashes: []), try Self.data(Self.mac())) == .codeDirectoryHashNotAllowed)
        #expect(LaunchPolicy.isCodeDirectoryHashEntry(Self.hash32) && LaunchPolicy.isCodeDirectoryHashEntry(Self.hash20))
        #expect(!LaunchPolicy.isCodeDirectoryHashEntry(Array(Self.hash32.prefix(31))) && !LaunchPolicy.isCodeDirectoryHashEntry([]))
    }

    /// One bit changed anywhere in the hash (or in the entry) is refused.
    @Test func everyBitOfTheHashCounts() async throws {
        let policy = LaunchPolicy(allowedCodeDirectoryHashes: [Self.hash32])
        for index in 0..<(32 * 8) {
            var changed = Self.hash32
            changed[index / 8] ^= 1 << UInt8(index % 8)
            #expect(await Self.code(policy, try Self.data(Self.mac(hash: .bytes(changed)))) == .codeDirectoryHashNotAllowed, "bit \(index)")
        }
    }

    @Test func missingHashUnderTheRules() async throws {
        let list = [Self.hash32]
        #expect(LaunchPolicy(allowedCodeDirectoryHashes: list).missingLaunchDataRule == .reject)
        let withoutHash = try Self.data(Self.mac(type: nil, hash: nil))
        #expect(await Self.code(LaunchPolicy(allowedCodeDirectoryHashes: list), withoutHash) == .launchDataMissing)
        #expect(await Self.code(LaunchPolicy(allowedCodeDirectoryHashes: list), nil) == .launchDataMissing)
        #expect(await Self.code(LaunchPolicy(allowedCodeDirectoryHashes: list), try Self.data(Self.mac(hash: nil))) == .launchDataMissing)
        #expect(await Self.code(LaunchPolicy(missingLaunchData: .allow, allowedCodeDirectoryHashes: list), withoutHash) == nil)
        #expect(await Self.code(LaunchPolicy(missingLaunchData: .allow, allowedCodeDirectoryHashes: list), nil) == nil)
        // Present data is still checked under allow; without a policy a hash decides nothing.
        #expect(
            await Self.code(
                LaunchPolicy(missingLaunchData: .allow, allowedCodeDirectoryHashes: [Self.hash20.reversed()]),
                try Self.data(Self.mac())) == .codeDirectoryHashNotAllowed)
        #expect(await Self.code(LaunchPolicy(), try Self.data(Self.mac())) == nil)
        #expect(await Self.code(LaunchPolicy(allowedValidationCategories: [6]), withoutHash) == nil)
    }

    /// The order: category, then version, then the hash.
    @Test func theHashIsCheckedLast() async throws {
        let data = try Self.data(Self.mac())
        let outside = [[UInt8](repeating: 1, count: 32)]
        #expect(
            await Self.code(LaunchPolicy(allowedValidationCategories: [4], allowedCodeDirectoryHashes: outside), data)
                == .validationCategoryNotAllowed)
        #expect(
            await Self.code(LaunchPolicy(minimumBundleVersion: BundleVersion("2"), allowedCodeDirectoryHashes: outside), data)
                == .bundleVersionNotAllowed)
        #expect(
            await Self.code(
                LaunchPolicy(
                    allowedValidationCategories: [6], minimumBundleVersion: BundleVersion("1"),
                    allowedCodeDirectoryHashes: outside), data) == .codeDirectoryHashNotAllowed)
    }

    // MARK: The generated vectors

    static func vectors(_ file: String) throws -> [Vector] {
        try VectorLoader.loadFile(Locations.fixtures.appendingPathComponent("app-attest/\(file)").path).vectors
    }

    /// Both macOS files hold the same cases (the attestation one also their
    /// anchors-removed copies), each flagged `MacLaunchData`; the issue's
    /// list is covered: with and without the hash, both sizes, wrong types
    /// and sizes, the allowlist in and out, category 6 under every policy.
    @Test func macFilesCoverTheIssuesList() throws {
        let attestations = try Self.vectors("attestation-macos27.json"), assertions = try Self.vectors("assertion-macos27.json")
        let names = { (vectors: [Vector], prefix: String) in
            vectors.filter { !$0.flags.contains("AnchorsRemoved") }.map { String($0.id.dropFirst(prefix.count)) }
        }
        #expect(names(attestations, "attestation-") == names(assertions, "assertion-"))
        for vector in attestations + assertions { #expect(vector.flags.contains("MacLaunchData"), "\(vector.id)") }
        let cases = names(assertions, "assertion-")
        for id in [
            "macos::shape::with-hash-32", "macos::shape::with-hash-20", "macos::shape::without-hash", "macos::malformed::type-integer",
            "macos::malformed::hash-31-bytes", "macos::malformed::hash-33-bytes", "macos::allowlist::in-32", "macos::allowlist::out-32",
            "macos::allowlist::in-20-by-32-entry", "macos::category-6::no-policy", "macos::category-6::app-store-only",
        ] {
            #expect(cases.contains(id), "\(id)")
        }
        let categorySix = cases.filter { $0.hasPrefix("macos::category-6::") }
        #expect(categorySix.count >= 15)
        var codes: [String: Int] = [:]
        for vector in assertions { codes[vector.error ?? vector.result.rawValue, default: 0] += 1 }
        for code in [
            "valid", "malformedAuthenticatorData", "codeDirectoryHashNotAllowed", "launchDataMissing", "validationCategoryNotAllowed",
            "bundleVersionNotAllowed",
        ] {
            #expect((codes[code] ?? 0) > 0, "no \(code) vector: \(codes)")
        }
        // Exactly the vectors that set an allowlist carry CodeDirectoryHashPolicy (the loader checks it too).
        for vector in attestations + assertions {
            #expect(vector.flags.contains("CodeDirectoryHashPolicy") == (vector.input["allowedCodeDirectoryHashes"] != nil), "\(vector.id)")
        }
    }

    /// `CategoryAsInteger`: every vector whose authenticator data carries
    /// the category as a CBOR unsigned integer is `acceptable` with the
    /// flag and its note, no other vector carries the flag, and the
    /// reference still refuses the integer form.
    @Test func integerCategoriesAreAcceptable() async throws {
        let files = try VectorLoader.load(paths: [Locations.fixtures.appendingPathComponent("app-attest").path])
        var flagged = 0
        for file in files where file.family == .appAttestAttestation || file.family == .appAttestAssertion {
            for vector in file.vectors {
                let field = file.family == .appAttestAssertion ? "assertion" : "attestationObject"
                let bytes = vector.input[field]?.stringValue.flatMap(BinaryText.base64) ?? []
                let integer =
                    Self.trailingMap(bytes, attestation: file.family == .appAttestAttestation)?[LaunchData.validationCategoryKey]?.majorType
                    == 0
                let copy = vector.flags.contains("AnchorsRemoved")
                #expect(vector.flags.contains("CategoryAsInteger") == (integer && !copy), "\(vector.id)")
                guard vector.flags.contains("CategoryAsInteger") else { continue }
                flagged += 1
                #expect(vector.result == .acceptable && vector.error == nil, "\(vector.id)")
                let note = try #require(file.flagNotes["CategoryAsInteger"])
                #expect(note.bugType == "SPEC_CHOICE")
                // The reference's own reading is unchanged.
                let code = await appAttestErrorCode {
                    if file.family == .appAttestAssertion {
                        _ = try Assertion(bytes: bytes)
                    } else {
                        _ = try AttestationObject(bytes: bytes)
                    }
                }
                #expect(code == .malformedAuthenticatorData, "\(vector.id)")
            }
        }
        #expect(flagged == 4)
    }

    /// The map after the credential key (attestation) or the 37-byte header
    /// (assertion), decoded well-formed only, when the object has one.
    static func trailingMap(_ object: [UInt8], attestation: Bool) -> CBORItem? {
        guard let root = try? CBORDecoder(mode: .wellFormed).decode(object),
            let authData = root[attestation ? "authData" : "authenticatorData"]?.bytesValue
        else { return nil }
        var offset = AuthenticatorData.fixedLength
        if attestation {
            guard authData.count > offset + 18 else { return nil }
            offset += 18 + (Int(authData[offset + 16]) << 8 | Int(authData[offset + 17]))
            guard offset < authData.count, let key = try? CBORDecoder(mode: .wellFormed).decodeFirst(authData[offset...]) else {
                return nil
            }
            offset += key.consumed
        }
        guard offset < authData.count else { return nil }
        return try? CBORDecoder(mode: .wellFormed).decode(authData[offset...])
    }
}
