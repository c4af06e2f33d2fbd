import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite device attest|assert` with the shape options of spec/probe.md
/// (Checks), judged by `trustsuite verify` as a server would run it; and
/// the option combinations the device refuses: one line, exit 2, the state
/// untouched.
@Suite struct DeviceShapeCLITests {
    static let appId = "TEAM123456.org.trustsuite.example"
    static let challenge = "cHJvYmUgY2hhbGxlbmdl"

    /// A device made with the CLI, its two test roots saved as PEM files.
    struct Phone {
        let folder: URL
        var state: String { folder.appendingPathComponent("phone").path }
        var attestationRoot: String { folder.appendingPathComponent("attestation-root.pem").path }
        var receiptRoot: String { folder.appendingPathComponent("receipt-root.pem").path }

        init() throws {
            folder = try CLI.temporaryFolder()
            let made = try CLI.run([
                "device", "init", "--state", folder.appendingPathComponent("phone").path, "--app-id", DeviceShapeCLITests.appId,
                "--environment", "development",
            ])
            try #require(made.status == 0, "\(made)")
            for (flag, path) in [("--attestation", attestationRoot), ("--receipt", receiptRoot)] {
                let root = try CLI.run(["device", "ca", "--state", state, flag])
                try #require(root.status == 0, "\(root)")
                try Data(root.stdout.utf8).write(to: URL(fileURLWithPath: path))
            }
        }

        func json(_ arguments: [String]) throws -> JSONValue {
            let outcome = try CLI.run(arguments + ["--json"])
            try #require(outcome.status == 0, "\(outcome)")
            return try JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
        }

        /// `device attest` with `shape`, then `verify attestation` of what it printed.
        func attest(_ shape: [String]) throws -> (attested: JSONValue, verdict: CLI.Outcome) {
            let made = try json(["device", "attest", "--state", state, "--challenge", DeviceShapeCLITests.challenge] + shape)
            let object = try #require(made["attestationObject"]?.stringValue)
            let file = try CLI.file("attestation-\(UUID().uuidString).b64", Array(object.utf8), in: folder)
            let verdict = try CLI.run([
                "verify", "attestation", file.path, "--key-id", try #require(made["keyId"]?.stringValue),
                "--challenge", DeviceShapeCLITests.challenge, "--app-id", DeviceShapeCLITests.appId, "--environment", "development",
                "--time", ISO8601DateFormatter().string(from: Date()), "--anchor", attestationRoot, "--receipt-anchor", receiptRoot,
                "--require-receipt",
                "--json",
            ])
            return (made, verdict)
        }
    }

    static func expect(_ verdict: CLI.Outcome, _ code: String?) {
        #expect(verdict.status == (code == nil ? 0 : 1) && !verdict.signaled, "\(verdict)")
        if let code { #expect(verdict.stdout.contains(#""error":"\#(code)""#), "\(verdict)") }
    }

    @Test(
        arguments: [
            ([], nil),
            (["--other-app-id", "TEAM123456.org.trustsuite.other"], "rpIdMismatch"),
            (["--other-environment"], "aaguidMismatch"),
            (["--attacker-root"], "certificateChainInvalid"),
            (["--expired-certificate"], "certificateChainInvalid"),
            (["--swap-key-id"], "keyIdMismatch"),
            (["--certificate-key-mismatch"], "keyIdMismatch"),
            (["--credential-id-mismatch"], "credentialIdMismatch"),
            (["--nonce-over-other-challenge"], "nonceMismatch"),
            (["--nonce-shape", "other-tag"], "nonceExtensionMissing"),
            (["--nonce-shape", "set"], "nonceExtensionMissing"),
            (["--nonce-shape", "standard"], nil),
            (["--counter", "1"], "counterNotZero"),
            (["--extensions"], nil),
            (["--validation-category", "4", "--bundle-version", "2.3"], nil),
            (["--other-environment", "--counter", "3"], "counterNotZero"),
        ] as [([String], String?)])
    func attestShape(_ shape: [String], _ code: String?) throws {
        let phone = try Phone()
        defer { try? FileManager.default.removeItem(at: phone.folder) }
        let (made, verdict) = try phone.attest(shape)
        Self.expect(verdict, code)
        // With --swap-key-id the key to assert with is printed beside the swapped id.
        #expect((made["attestedKeyId"] != nil) == shape.contains("--swap-key-id"), "\(made)")
    }

    @Test(
        arguments: [
            ([], nil),
            (["--replay-counter"], "counterNotIncreasing"),
            (["--counter", "1"], "counterNotIncreasing"),
            (["--counter", "0"], "counterNotIncreasing"),
            (["--counter", "9"], nil),
            (["--foreign-key"], "signatureInvalid"),
            (["--prehashed-nonce"], "signatureInvalid"),
            (["--other-app-id", "TEAM123456.org.trustsuite.other"], "rpIdMismatch"),
            (["--flags", "0x40", "--extensions"], nil),
            (["--flags", "0xC0", "--extensions"], nil),
            (["--flags", "192"], nil),
        ] as [([String], String?)])
    func assertShape(_ shape: [String], _ code: String?) throws {
        let phone = try Phone()
        defer { try? FileManager.default.removeItem(at: phone.folder) }
        let made = try phone.json(["device", "attest", "--state", phone.state, "--challenge", Self.challenge])
        let keyId = try #require(made["keyId"]?.stringValue)
        let clientData = try CLI.file("client.json", Array(#"{"challenge":"c2"}"#.utf8), in: phone.folder)
        let base = ["device", "assert", "--state", phone.state, "--key-id", keyId, "--client-data", clientData.path]
        #expect(try phone.json(base)["counter"]?.int64Value == 1)
        let shaped = try phone.json(base + shape)
        let file = try CLI.file("assertion.b64", Array(try #require(shaped["assertion"]?.stringValue).utf8), in: phone.folder)
        let verdict = try CLI.run([
            "verify", "assertion", file.path, "--public-key", try #require(made["publicKey"]?.stringValue),
            "--client-data", clientData.path, "--app-id", Self.appId, "--previous-counter", "1", "--json",
        ])
        Self.expect(verdict, code)
    }

    /// Options that cannot go together, or values out of range: one
    /// `trustsuite: …` line naming the option, exit 2, no key made or
    /// counter spent.
    @Test(
        arguments: [
            (["assert", "--replay-counter", "--counter", "3"], "--replay-counter or --counter"),
            (["assert", "--flags", "0x100"], "--flags"), (["assert", "--flags", "zz"], "--flags"), (["assert", "--flags", ""], "--flags"),
            (["assert", "--flags", "-1"], "--flags"), (["assert", "--counter", "4294967296"], "--counter"),
            (["assert", "--other-app-id", ""], "--other-app-id"),
            (["attest", "--other-app-id", ""], "--other-app-id"), (["attest", "--nonce-shape", "sliced"], "--nonce-shape"),
            (["attest", "--counter", "-1"], "--counter"), (["attest", "--counter", "4294967296"], "--counter"),
        ] as [([String], String)])
    func badCombinationsAreOneLine(_ arguments: [String], _ named: String) throws {
        let phone = try Phone()
        defer { try? FileManager.default.removeItem(at: phone.folder) }
        let made = try phone.json(["device", "attest", "--state", phone.state, "--challenge", Self.challenge])
        let clientData = try CLI.file("client.json", [1], in: phone.folder)
        let keys = try FileManager.default.contentsOfDirectory(atPath: phone.state + "/keys").sorted()
        let keyFile = try Data(
            contentsOf: URL(fileURLWithPath: phone.state + "/keys").appendingPathComponent(
                try #require(keys.first { $0.hasSuffix(".json") })))
        var full = ["device", arguments[0], "--state", phone.state]
        full +=
            arguments[0] == "attest"
            ? ["--challenge", Self.challenge]
            : ["--key-id", try #require(made["keyId"]?.stringValue), "--client-data", clientData.path]
        let outcome = try CLI.run(full + Array(arguments.dropFirst()))
        #expect(outcome.status == 2 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: ") && outcome.stderr.contains(named), "\(outcome)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: phone.state + "/keys").sorted() == keys)
        #expect(
            try Data(
                contentsOf: URL(fileURLWithPath: phone.state + "/keys").appendingPathComponent(
                    try #require(keys.first { $0.hasSuffix(".json") }))) == keyFile)
    }
}
