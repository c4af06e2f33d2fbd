import AppAttest
import Foundation
import PropertyBased
import StrictCBOR
import SwiftASN1
import Testing
import TestSupport
import X509

/// The launch policy of spec/app-attest.md, Amendments (round 3): bundle
/// versions, the launch-data map, the policy's decisions, and Apple's two
/// samples under the policies of the issue's done-when checks.
@Suite struct LaunchPolicyTests {
    // MARK: Bundle versions

    @Test(arguments: [
        ("1.10", "1.9", 1), ("1.9", "1.10", -1), ("2", "2.0.0", 0), ("2.0.0", "2", 0), ("2.0.1", "2", 1), ("2", "2.0.1", -1),
        ("1.2.3", "1.2.3", 0), ("01.2", "1.02", 0), ("0", "0.0", 0), ("10", "9", 1),
        ("1.99999999999999999999999", "1.18446744073709551616", 1), ("18446744073709551616", "18446744073709551615", 1),
    ])
    func bundleVersionsCompareNumerically(_ pair: (String, String, Int)) throws {
        let left = try #require(BundleVersion(pair.0)), right = try #require(BundleVersion(pair.1))
        #expect((left < right ? -1 : left == right ? 0 : 1) == pair.2, "\(pair.0) vs \(pair.1)")
    }

    @Test(arguments: ["", ".", "1.", ".1", "1..2", "1.0b3", " 1", "1 ", "+1", "-1", "v1", "1,2", "١", "1.2.", "0x1"])
    func nonDecimalVersionsDoNotParse(_ text: String) {
        #expect(BundleVersion(text) == nil)
    }

    /// Versions of small parts order as their parts do, as integer lists padded with zeros.
    @Test func versionOrderMatchesIntegerOrder() async {
        let part = Gen.int(in: 0...120)
        let pace = Pace()
        await propertyCheck(count: 1000, input: zip(part.array(of: 1...4), part.array(of: 1...4))) { a, b in
            await pace.step()
            let text = { (parts: [Int]) in parts.map(String.init).joined(separator: ".") }
            let width = max(a.count, b.count)
            let padded = { (parts: [Int]) in parts + [Int](repeating: 0, count: width - parts.count) }
            guard let left = BundleVersion(text(a)), let right = BundleVersion(text(b)) else {
                Issue.record("\(a) or \(b) did not parse")
                return
            }
            #expect((left < right) == padded(a).lexicographicallyPrecedes(padded(b)))
            #expect((left == right) == (padded(a) == padded(b)))
        }
    }

    // MARK: Launch data

    static func launchData(_ hex: String) throws -> LaunchData? {
        let bytes = try #require(hexBytes(hex))
        return try AuthenticatorData(bytes: [UInt8](repeating: 0, count: 32) + [0x40, 0, 0, 0, 1] + bytes, layout: .assertion).launchData
    }

    static func hexBytes(_ hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    static let bundleKey = "77" + Array("apple_bundle_version_01".utf8).map { String(format: "%02x", $0) }.joined()
    static let categoryKey = "78" + "1c" + Array("apple_validation_category_01".utf8).map { String(format: "%02x", $0) }.joined()

    @Test func categoryIsFourBytesLittleEndian() throws {
        let data = try #require(try Self.launchData("a2" + Self.bundleKey + "6131" + Self.categoryKey + "4404030201"))
        #expect(data.validationCategory == 0x0102_0304)
        #expect(data.bundleVersion == "1")
        #expect(data.otherKeys.isEmpty)
    }

    @Test func unknownKeysAreKept() throws {
        let data = try #require(try Self.launchData("a2616b01" + Self.categoryKey + "4401000000"))
        #expect(data.validationCategory == 1)
        #expect(data.bundleVersion == nil)
        #expect(data.otherKeys.map(\.textValue) == ["k"])
    }

    @Test(arguments: [
        ("category of 3 bytes", "a1" + categoryKey + "43010000"), ("category of 5 bytes", "a1" + categoryKey + "450100000000"),
        ("category as an integer", "a1" + categoryKey + "01"), ("category as text", "a1" + categoryKey + "6131"),
        ("version as bytes", "a1" + bundleKey + "4131"), ("version as an integer", "a1" + bundleKey + "01"),
        ("version null", "a1" + bundleKey + "f6"), ("category twice", "a2" + categoryKey + "4401000000" + categoryKey + "4401000000"),
    ])
    func knownKeysOfTheWrongTypeAreMalformed(_ named: (String, String)) async throws {
        #expect(await appAttestErrorCode { _ = try Self.launchData(named.1) } == .malformedAuthenticatorData, "\(named.0)")
    }

    @Test func namesAreInformational() {
        let names = (0...11).map { LaunchData.validationCategoryName(UInt32($0)) }
        #expect(
            names == [
                "unassigned", "platform", "TestFlight", "development", "App Store", "enterprise", "Developer ID",
                "unassigned", "unassigned", "unassigned", "none", "unassigned",
            ])
    }

    // MARK: The policy

    static func data(category: UInt32? = 1, version: String? = "1") throws -> LaunchData {
        var entries: [(CBORValue, CBORValue)] = []
        if let category {
            entries.append((.text(LaunchData.validationCategoryKey), .bytes(withUnsafeBytes(of: category.littleEndian, Array.init))))
        }
        if let version { entries.append((.text(LaunchData.bundleVersionKey), .text(version))) }
        return try LaunchData(map: try CBORDecoder(mode: .ctap2).decode(CBOREncoder.canonical(.map(entries))))
    }

    static func code(_ policy: LaunchPolicy, _ data: LaunchData?) async -> AppAttestError.Code? {
        await appAttestErrorCode { try policy.check(data) }
    }

    @Test func emptyPolicyDecidesNothing() async throws {
        #expect(LaunchPolicy().missingLaunchDataRule == .allow)
        for data in [nil, try Self.data(), try Self.data(category: nil, version: nil), try Self.data(category: 9, version: "x")] {
            #expect(await Self.code(LaunchPolicy(), data) == nil)
        }
    }

    @Test func categoriesAndVersions() async throws {
        let minimum = try #require(BundleVersion("1.10"))
        let policy = LaunchPolicy(allowedValidationCategories: [4], minimumBundleVersion: minimum)
        #expect(await Self.code(policy, try Self.data(category: 4, version: "1.10.0")) == nil)
        #expect(await Self.code(policy, try Self.data(category: 3, version: "2")) == .validationCategoryNotAllowed)
        #expect(await Self.code(policy, try Self.data(category: 4, version: "1.9")) == .bundleVersionNotAllowed)
        #expect(await Self.code(policy, try Self.data(category: 4, version: "1.10b")) == .bundleVersionNotAllowed)
        // A version's form is judged only under a minimum.
        #expect(await Self.code(LaunchPolicy(allowedValidationCategories: [4]), try Self.data(category: 4, version: "1.10b")) == nil)
    }

    @Test func missingLaunchData() async throws {
        let categories = LaunchPolicy(allowedValidationCategories: [1])
        #expect(categories.missingLaunchDataRule == .reject)
        #expect(await Self.code(categories, nil) == .launchDataMissing)
        #expect(await Self.code(categories, try Self.data(category: nil)) == .launchDataMissing)
        #expect(await Self.code(categories, try Self.data(version: nil)) == nil)
        let allow = LaunchPolicy(allowedValidationCategories: [1], missingLaunchData: .allow)
        #expect(await Self.code(allow, nil) == nil)
        #expect(await Self.code(allow, try Self.data(category: nil)) == nil)
        #expect(await Self.code(allow, try Self.data(category: 2)) == .validationCategoryNotAllowed)
        #expect(await Self.code(LaunchPolicy(missingLaunchData: .reject), nil) == .launchDataMissing)
        #expect(await Self.code(LaunchPolicy(missingLaunchData: .reject), try Self.data(category: nil, version: nil)) == nil)
    }
}

/// Apple's samples under the done-when policies of the issue: the 2026
/// sample (category 1, bundle version "1") and the 2024 one (no map).
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct LaunchPolicyRealDataTests {
    static func sample(_ year: String) throws -> RealData.Attestation {
        try #require(RealData.attestations.first { $0.name.contains("validation_guide_\(year)") })
    }

    static func code(_ a: RealData.Attestation, _ policy: LaunchPolicy?) async throws -> AppAttestError.Code? {
        let verifier = try AttestationVerifier(appId: a.appId, environment: a.environment, launchPolicy: policy)
        return await appAttestErrorCode {
            _ = try await verifier.verify(
                attestationObject: a.object, keyId: a.keyId,
                clientDataHash: a.clientDataHash, at: a.time)
        }
    }

    @Test func sample2026() async throws {
        let a = try Self.sample("2026")
        let verified = try await AttestationVerifier(appId: a.appId, environment: a.environment)
            .verify(attestationObject: a.object, keyId: a.keyId, clientDataHash: a.clientDataHash, at: a.time)
        #expect(verified.launchData?.validationCategory == 1)
        #expect(verified.launchData?.bundleVersion == "1")
        #expect(try await Self.code(a, LaunchPolicy(allowedValidationCategories: [1])) == nil)
        #expect(try await Self.code(a, LaunchPolicy(allowedValidationCategories: [3, 4])) == .validationCategoryNotAllowed)
        #expect(try await Self.code(a, LaunchPolicy(minimumBundleVersion: BundleVersion("1.0.1"))) == .bundleVersionNotAllowed)
        #expect(try await Self.code(a, LaunchPolicy(minimumBundleVersion: BundleVersion("1.0.0"))) == nil)
        #expect(try await Self.code(a, LaunchPolicy(missingLaunchData: .reject)) == nil)
    }

    @Test func sample2024() async throws {
        let a = try Self.sample("2024")
        #expect(try await Self.code(a, LaunchPolicy(allowedValidationCategories: [1], missingLaunchData: .reject)) == .launchDataMissing)
        #expect(try await Self.code(a, LaunchPolicy(missingLaunchData: .reject)) == .launchDataMissing)
        #expect(try await Self.code(a, LaunchPolicy(allowedValidationCategories: [1], missingLaunchData: .allow)) == nil)
        #expect(try await Self.code(a, LaunchPolicy()) == nil)
    }

    /// `inspect`'s reading of the 2026 credential certificate's Apple extensions.
    @Test func certificateExtensionsOf2026() throws {
        let a = try Self.sample("2026")
        let leaf = try Certificate(derEncoded: try AttestationObject(bytes: a.object).certificates[0])
        let readings = leaf.extensions.compactMap { AppleCertificateExtensions.read(oid: $0.oid, value: $0.value) }
        #expect(readings.count == 3)
        let ext86 = try #require(leaf.extensions[oid: AppleCertificateExtensions.oid86])
        let reading86 = try #require(AppleCertificateExtensions.read(oid: ext86.oid, value: ext86.value))
        #expect(reading86.lines == ["version \"11\"", "okd: true, oa: true, osgn: true, odel: true, ock: true"])
        let ext87 = try #require(leaf.extensions[oid: AppleCertificateExtensions.oid87])
        let lines87 = try #require(AppleCertificateExtensions.read(oid: ext87.oid, value: ext87.value)).lines
        #expect(lines87.contains("[1400] \"27.0\""))
        #expect(lines87.contains("[1403] \"24A325b\""))
        #expect(lines87.contains("[1026] \"iphoneos\""))
        #expect(lines87.contains("[1104] 2"))
        // A value that is not DER is described, not refused.
        let broken = try #require(AppleCertificateExtensions.read(oid: AppleCertificateExtensions.oid86, value: [0x30, 0x05, 0x01]))
        #expect(broken.lines == ["not DER (3 bytes): 300501"])
    }
}
