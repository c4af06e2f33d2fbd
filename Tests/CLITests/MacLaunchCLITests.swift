import ConformanceKit
import VectorContract
import Crypto
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// macOS 27 from the command line (docs/models/app-attest.md, macOS 27):
/// `verify attestation|assertion --allow-code-directory-hash` on the
/// generated Mac vectors (the issue's done-when: a generated Mac
/// attestation passes with no policy and a hash outside an allowlist is
/// `codeDirectoryHashNotAllowed`), `inspect` naming the shape, the category
/// and the hash type, and `device attest|assert --platform macos`.
@Suite struct MacLaunchCLITests {
    /// The stand-in hash of the vectors' app: SHA-256 of its App ID.
    static let appHash = Array(SHA256.hash(data: Array("ABCDE12345.org.trustsuite.example".utf8)))
    static let otherHash = [UInt8](repeating: 0x5A, count: 32)

    /// `verify attestation` of the attestation vector `id` as its input gives it, plus `extra`.
    static func verifyAttestation(_ id: String, _ extra: [String]) throws -> CLI.Outcome {
        let v = try AssertionInputFormTests.vector(id)
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func field(_ key: String) throws -> String { try #require(v.input[key]?.stringValue, "\(id): \(key)") }
        let object = try CLI.file("object.b64", Array(try field("attestationObject").utf8), in: folder)
        var arguments: [String] = ["verify", "attestation", object.path, "--key-id", try field("keyId")]
        arguments += ["--client-data-hash", try field("clientDataHash"), "--app-id", try field("appId")]
        arguments += ["--environment", try field("environment"), "--time", try field("validationTime"), "--json"]
        for (key, option) in [("trustAnchorsPem", "--anchor"), ("receiptTrustAnchorsPem", "--receipt-anchor")] {
            let pem = try #require(v.input[key]?.arrayValue?.first?.stringValue)
            arguments += [option, try CLI.file("\(key).pem", Array(pem.utf8), in: folder).path]
        }
        return try CLI.run(arguments + extra)
    }

    static func expect(_ outcome: CLI.Outcome, _ code: String?) {
        #expect(outcome.status == (code == nil ? 0 : 1) && !outcome.signaled, "\(outcome)")
        if let code { #expect(outcome.stdout.contains(#""error":"\#(code)""#), "\(outcome)") }
    }

    static func json(_ outcome: CLI.Outcome) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
    }

    static let hex32 = BinaryText.hex(appHash), hex20 = BinaryText.hex(appHash.prefix(20)), otherHex = BinaryText.hex(otherHash)

    @Test(
        arguments: [
            ("attestation-macos::shape::with-hash-32", [], nil),
            ("attestation-macos::shape::with-hash-32", ["--allow-code-directory-hash", otherHex], "codeDirectoryHashNotAllowed"),
            (
                "attestation-macos::shape::with-hash-32", ["--allow-code-directory-hash", otherHex, "--allow-code-directory-hash", hex32],
                nil
            ),
            ("attestation-macos::shape::with-hash-32", ["--allow-code-directory-hash", hex20], "codeDirectoryHashNotAllowed"),
            ("attestation-macos::shape::with-hash-32", ["--allow-code-directory-hash", hex32.uppercased()], nil),
            ("attestation-macos::shape::with-hash-20", ["--allow-code-directory-hash", hex32], nil),
            ("attestation-macos::shape::with-hash-20", ["--allow-code-directory-hash", hex20], nil),
            ("attestation-macos::shape::without-hash", [], nil),
            ("attestation-macos::shape::without-hash", ["--allow-code-directory-hash", hex32], "launchDataMissing"),
            ("attestation-macos::shape::without-hash", ["--allow-code-directory-hash", hex32, "--missing-launch-data", "allow"], nil),
            (
                "attestation-macos::shape::with-hash-32", ["--allow-category", "4", "--allow-code-directory-hash", hex32],
                "validationCategoryNotAllowed"
            ),
            ("attestation-macos::shape::with-hash-32", ["--allow-category", "6", "--allow-code-directory-hash", hex32], nil),
        ] as [(String, [String], String?)])
    func generatedMacAttestationUnderAPolicy(_ id: String, _ policy: [String], _ code: String?) throws {
        Self.expect(try Self.verifyAttestation(id, policy), code)
    }

    @Test func verdictNamesTheMacKeys() throws {
        let mac = try Self.json(try Self.verifyAttestation("attestation-macos::shape::with-hash-32", []))
        #expect(mac["launchDataShape"]?.stringValue == "macOS")
        #expect(mac["validationCategory"]?.int64Value == 6 && mac["validationCategoryName"]?.stringValue == "Developer ID")
        #expect(mac["codeDirectoryHashType"]?.int64Value == 2 && mac["codeDirectoryHashTypeName"]?.stringValue == "SHA-256")
        #expect(mac["codeDirectoryHash"]?.stringValue == Self.hex32)
        let ios = try Self.json(try Self.verifyAttestation("attestation-launch-policy::unknown-keys::without-policy", []))
        #expect(ios["launchDataShape"]?.stringValue == "iOS" && ios["codeDirectoryHash"] == .null && ios["codeDirectoryHashType"] == .null)
        let none = try Self.json(try Self.verifyAttestation("attestation-baseline::production", []))
        #expect(none["launchDataShape"] == .null)
    }

    static func inspect(_ id: String) throws -> String {
        let v = try AssertionInputFormTests.vector(id)
        let field = v.family == .appAttestAssertion ? "assertion" : "attestationObject"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CLI.file("object.b64", Array(try #require(v.input[field]?.stringValue).utf8), in: folder)
        let outcome = try CLI.run(["inspect", file.path])
        #expect(outcome.status == 0, "\(outcome)")
        return outcome.stdout
    }

    @Test func inspectNamesShapeCategoryAndHashType() throws {
        let mac = try Self.inspect("attestation-macos::shape::with-hash-32")
        for line in [
            "launch data: validation category 6 (Developer ID, name informational), bundle version \"1\"",
            "launch data shape: macOS 27 (apple_cd_hash_type_01 / apple_cd_hash_hash_01 present)",
            "code-directory hash: type 2 (SHA-256, name informational), hash \(Self.hex32) (32 bytes)",
        ] {
            #expect(mac.contains(line), "missing: \(line)\n\(mac)")
        }
        let truncated = try Self.inspect("assertion-macos::shape::with-hash-20")
        #expect(truncated.contains("hash \(Self.hex20) (20 bytes, truncated CDHash)"), "\(truncated)")
        let withoutHash = try Self.inspect("attestation-macos::shape::without-hash")
        #expect(
            withoutHash.contains("launch data shape: iOS 27 (no code-directory hash keys; category 6 (Developer ID) is a Mac app's"),
            "\(withoutHash)")
        #expect(!withoutHash.contains("code-directory hash: type"))
        let ios = try Self.inspect("attestation-launch-policy::category::1-platform-allowed")
        #expect(ios.contains("launch data shape: iOS 27 (no code-directory hash keys)\n"), "\(ios)")
        let typeOne = try Self.inspect("attestation-macos::shape::hash-type-1")
        #expect(typeOne.contains("code-directory hash: type 1 (SHA-1, name informational)"), "\(typeOne)")
    }

    /// Values the options refuse: one `trustsuite: …` line, exit 2.
    @Test(arguments: [
        ["--allow-code-directory-hash", "zz"], ["--allow-code-directory-hash", ""],
        ["--allow-code-directory-hash", String(repeating: "ab", count: 31)],
        ["--allow-code-directory-hash", String(repeating: "ab", count: 33)],
        ["--allow-code-directory-hash", String(repeating: "ab", count: 21)],
        ["--allow-code-directory-hash", String(repeating: "a", count: 63)],
    ])
    func badAllowlistEntriesAreOneLineUsageErrors(_ policy: [String]) throws {
        let outcome = try Self.verifyAttestation("attestation-macos::shape::with-hash-32", policy)
        #expect(outcome.status == 2 && !outcome.signaled, "\(outcome)")
        #expect(
            outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: ")
                && outcome.stderr.contains("--allow-code-directory-hash"),
            "\(outcome)")
        #expect(outcome.stdout.isEmpty)
    }

    // MARK: The device

    typealias Phone = DeviceShapeCLITests.Phone

    /// `device attest` with `shape`, then `verify attestation` of it under `policy`.
    static func attest(_ phone: Phone, _ shape: [String], policy: [String]) throws -> (made: JSONValue, verdict: CLI.Outcome) {
        let made = try phone.json(["device", "attest", "--state", phone.state, "--challenge", DeviceShapeCLITests.challenge] + shape)
        let object = try CLI.file(
            "attestation-\(UUID().uuidString).b64", Array(try #require(made["attestationObject"]?.stringValue).utf8), in: phone.folder)
        let verdict = try CLI.run(
            [
                "verify", "attestation", object.path, "--key-id", try #require(made["keyId"]?.stringValue),
                "--challenge", DeviceShapeCLITests.challenge, "--app-id", DeviceShapeCLITests.appId, "--environment", "development",
                "--time", ISO8601DateFormatter().string(from: Date()), "--anchor", phone.attestationRoot, "--receipt-anchor",
                phone.receiptRoot,
                "--require-receipt", "--json",
            ] + policy)
        return (made, verdict)
    }

    static let deviceHash = BinaryText.hex(Array(SHA256.hash(data: Array(DeviceShapeCLITests.appId.utf8))))

    @Test(
        arguments: [
            (["--platform", "macos"], [], nil),
            (["--platform", "macos"], ["--allow-code-directory-hash", deviceHash], nil),
            (["--platform", "macos"], ["--allow-code-directory-hash", otherHex], "codeDirectoryHashNotAllowed"),
            (["--platform", "macos"], ["--allow-category", "6"], nil),
            (["--platform", "macos"], ["--allow-category", "4"], "validationCategoryNotAllowed"),
            (["--platform", "macos", "--validation-category", "4"], ["--allow-category", "4"], nil),
            (["--platform", "macos", "--no-code-directory-hash"], ["--allow-code-directory-hash", deviceHash], "launchDataMissing"),
            (
                ["--platform", "macos", "--no-code-directory-hash"],
                ["--allow-code-directory-hash", deviceHash, "--missing-launch-data", "allow"], nil
            ),
            (["--platform", "macos", "--code-directory-hash", hex20], ["--allow-code-directory-hash", hex32], nil),
            (
                ["--platform", "macos", "--code-directory-hash", otherHex], ["--allow-code-directory-hash", hex32],
                "codeDirectoryHashNotAllowed"
            ),
            (["--code-directory-hash", hex32], ["--allow-code-directory-hash", hex32], nil),
            (["--platform", "ios"], ["--allow-code-directory-hash", deviceHash], "launchDataMissing"),
        ] as [([String], [String], String?)])
    func deviceWritesTheMacShape(_ shape: [String], _ policy: [String], _ code: String?) throws {
        let phone = try Phone()
        defer { try? FileManager.default.removeItem(at: phone.folder) }
        let (made, verdict) = try Self.attest(phone, shape, policy: policy)
        Self.expect(verdict, code)
        let written =
            shape.contains("--no-code-directory-hash") || shape == ["--platform", "ios"]
            ? nil
            : shape.firstIndex(of: "--code-directory-hash").map { shape[$0 + 1] } ?? Self.deviceHash
        #expect(made["codeDirectoryHash"]?.stringValue == written, "\(made)")
        if code == nil, shape.contains("macos") {
            let json = try Self.json(verdict)
            #expect(json["validationCategory"]?.int64Value == (shape.contains("4") ? 4 : 6))
            #expect(json["launchDataShape"]?.stringValue == (shape.contains("--no-code-directory-hash") ? "iOS" : "macOS"))
        }
    }

    @Test(
        arguments: [
            (["--platform", "macos"], ["--allow-code-directory-hash", deviceHash, "--allow-category", "6"], nil),
            (["--platform", "macos"], ["--allow-code-directory-hash", otherHex], "codeDirectoryHashNotAllowed"),
            (["--platform", "macos", "--flags", "0xC0"], [], nil),
            ([], ["--allow-code-directory-hash", deviceHash], "launchDataMissing"),
        ] as [([String], [String], String?)])
    func deviceAssertsInTheMacShape(_ shape: [String], _ policy: [String], _ code: String?) throws {
        let phone = try Phone()
        defer { try? FileManager.default.removeItem(at: phone.folder) }
        let made = try phone.json([
            "device", "attest", "--state", phone.state, "--challenge", DeviceShapeCLITests.challenge, "--platform", "macos",
        ])
        let clientData = try CLI.file("client.json", Array(#"{"challenge":"mac"}"#.utf8), in: phone.folder)
        let asserted = try phone.json(
            [
                "device", "assert", "--state", phone.state, "--key-id", try #require(made["keyId"]?.stringValue),
                "--client-data", clientData.path,
            ] + shape)
        let file = try CLI.file("assertion.b64", Array(try #require(asserted["assertion"]?.stringValue).utf8), in: phone.folder)
        let verdict = try CLI.run(
            [
                "verify", "assertion", file.path, "--public-key", try #require(made["publicKey"]?.stringValue),
                "--client-data", clientData.path, "--app-id", DeviceShapeCLITests.appId, "--previous-counter", "0", "--json",
            ]
                + policy)
        Self.expect(verdict, code)
    }

    /// Device options that cannot be: one line, exit 2, nothing made.
    @Test(
        arguments: [
            (["attest", "--platform", "windows"], "--platform"), (["attest", "--code-directory-hash", "abcd"], "--code-directory-hash"),
            (["attest", "--code-directory-hash", "zz"], "--code-directory-hash"),
            (["attest", "--no-code-directory-hash"], "--no-code-directory-hash"),
            (
                ["attest", "--platform", "macos", "--no-code-directory-hash", "--code-directory-hash", String(repeating: "ab", count: 32)],
                "--no-code-directory-hash"
            ),
        ] as [([String], String)])
    func badDeviceOptionsAreOneLine(_ arguments: [String], _ named: String) throws {
        let phone = try Phone()
        defer { try? FileManager.default.removeItem(at: phone.folder) }
        let keys = try FileManager.default.contentsOfDirectory(atPath: phone.state + "/keys")
        let outcome = try CLI.run(
            ["device", arguments[0], "--state", phone.state, "--challenge", DeviceShapeCLITests.challenge]
                + Array(arguments.dropFirst()))
        #expect(outcome.status == 2 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: ") && outcome.stderr.contains(named), "\(outcome)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: phone.state + "/keys") == keys)
    }
}
