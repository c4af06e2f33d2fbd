import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite verify …` takes the input forms a server really has: binary,
/// standard base64, base64url, padded or not, with white space or line breaks
/// and a UTF-8 BOM; PEM (one or many) or DER anchors. Bad input is one
/// `trustsuite: …` line naming the option, exit 2, never a trap.
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct VerifyInputFormTests {
    /// One of Apple's sample attestations, the 2024 one by default (spec/app-attest.md; raw challenge as clientDataHash).
    struct Sample {
        let object: [UInt8]
        let keyId: [UInt8]
        let challenge: [UInt8]
        let appId: String
        let time: String
        let publicKey: [UInt8]

        static func load(_ name: String = "validation_guide_2024_ios18") throws -> Sample {
            let data = try #require(Locations.external("app-attest/apple-docs/\(name).json"))
            let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            func b64(_ key: String) throws -> [UInt8] { try #require(BinaryText.base64(doc[key] as? String ?? "")) }
            let derived = try #require(doc["derived_by_independent_check"] as? [String: Any])
            return Sample(
                object: try b64("attestationObject_b64"), keyId: try b64("keyId_b64"), challenge: try b64("clientDataHash_b64"),
                appId: try #require(doc["appId"] as? String), time: try #require(doc["validationTime"] as? String),
                publicKey: try #require(BinaryText.base64(derived["publicKeyX963_b64"] as? String ?? "")))
        }

        /// The object written as binary into a fresh folder: (folder, file).
        func objectFile() throws -> (folder: URL, file: URL) {
            let folder = try CLI.temporaryFolder()
            return (folder, try CLI.file("attestation.bin", object, in: folder))
        }

        func arguments(file: String, keyId: String? = nil, time: String? = nil) -> [String] {
            [
                "verify", "attestation", file, "--key-id", keyId ?? BinaryText.base64(self.keyId),
                "--challenge", BinaryText.base64(challenge), "--app-id", appId, "--environment", "production", "--time", time ?? self.time,
            ]
        }
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        BinaryText.base64(bytes).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func wrapped(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        return lines.joined(separator: "\r\n") + "\n"
    }

    /// The same object as every accepted file form.
    static let forms: [(String, @Sendable ([UInt8]) -> Data)] = [
        ("binary", { Data($0) }),
        ("base64", { Data(BinaryText.base64($0).utf8) }),
        ("base64url-unpadded", { Data(base64url($0).utf8) }),
        ("base64-76-column-lines", { Data(wrapped(BinaryText.base64($0), width: 76).utf8) }),
        ("base64-with-bom-and-spaces", { Data([0xEF, 0xBB, 0xBF] + Array("  \(BinaryText.base64($0))\n\n".utf8)) }),
        ("base64url-64-column-lines", { Data(wrapped(base64url($0), width: 64).utf8) }),
    ]

    @Test(arguments: forms.map(\.0))
    func attestationFileInEveryForm(_ form: String) throws {
        let sample = try Sample.load()
        let folder = try CLI.temporaryFolder()
        let file = folder.appendingPathComponent("attestation")
        let encode = try #require(Self.forms.first { $0.0 == form }?.1)
        try encode(sample.object).write(to: file)
        let outcome = try CLI.run(sample.arguments(file: file.path))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("receiptStatus: verified"), "\(outcome)")
    }

    @Test func keyIdAsBase64urlWithWhiteSpace() throws {
        let sample = try Sample.load()
        let file = try sample.objectFile().file
        let outcome = try CLI.run(sample.arguments(file: file.path, keyId: "  \(Self.base64url(sample.keyId))\n"))
        #expect(outcome.status == 0, "\(outcome)")
    }

    @Test func anchorsAsDERAndMultiCertificatePEM() throws {
        let sample = try Sample.load()
        let (folder, file) = try sample.objectFile()
        let rootPEM = try #require(Locations.external("app-attest/Apple_App_Attestation_Root_CA.pem"))
        let g3PEM = try #require(Locations.external("app-attest/Apple_Root_CA_G3.pem"))
        let bundle = folder.appendingPathComponent("bundle.pem")
        try (g3PEM + rootPEM).write(to: bundle)
        let der = folder.appendingPathComponent("root.der")
        let derBytes = try #require(PEMBlocks.first(String(decoding: rootPEM, as: UTF8.self)))
        try Data(derBytes).write(to: der)
        for anchor in [bundle, der] {
            let outcome = try CLI.run(sample.arguments(file: file.path) + ["--anchor", anchor.path])
            #expect(outcome.status == 0, "\(anchor.lastPathComponent): \(outcome)")
        }
        // The G3 root alone is no anchor of the attestation chain.
        let g3 = folder.appendingPathComponent("g3.pem")
        try g3PEM.write(to: g3)
        let refused = try CLI.run(sample.arguments(file: file.path) + ["--anchor", g3.path, "--json"])
        #expect(refused.status == 1 && refused.stdout.contains("certificateChainInvalid"), "\(refused)")
    }

    /// The receipt is reported by default and decides the verdict with --require-receipt.
    @Test func requireReceipt() throws {
        let sample = try Sample.load()
        let file = try sample.objectFile().file
        let early = "2024-04-18T15:14:54Z"  // an hour before the receipt was made; the certificate is valid
        let reported = try CLI.run(sample.arguments(file: file.path, time: early) + ["--json"])
        #expect(reported.status == 0, "\(reported)")
        #expect(reported.stdout.contains(#""receiptStatus":"receiptNotYetValid""#), "\(reported)")
        let required = try CLI.run(sample.arguments(file: file.path, time: early) + ["--json", "--require-receipt"])
        #expect(required.status == 1, "\(required)")
        #expect(required.stdout.contains(#""error":"receiptNotYetValid""#), "\(required)")
        let good = try CLI.run(sample.arguments(file: file.path) + ["--require-receipt"])
        #expect(good.status == 0, "\(good)")
    }

    /// Each bad input: exit 2, one line naming the option, no trap.
    @Test func badInputsAreOneLineErrors() throws {
        let sample = try Sample.load()
        let (folder, good) = try sample.objectFile()
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        let huge = folder.appendingPathComponent("huge")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100 * 1024 * 1024)  // 100 MB, sparse
        try handle.close()
        let garbageAnchor = folder.appendingPathComponent("garbage.pem")
        try Data("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n".utf8).write(to: garbageAnchor)
        let cases: [(String, [String], String)] = [
            ("empty file", sample.arguments(file: empty.path), "FILE"),
            ("100 MB file", sample.arguments(file: huge.path), "FILE"),
            ("missing file", sample.arguments(file: folder.appendingPathComponent("nope").path), "FILE"),
            ("directory", sample.arguments(file: folder.path), "FILE"),
            ("key id not base64", sample.arguments(file: good.path, keyId: "not base64!"), "--key-id"),
            ("empty key id", sample.arguments(file: good.path, keyId: ""), "--key-id"),
            ("garbage anchor", sample.arguments(file: good.path) + ["--anchor", garbageAnchor.path], "--anchor"),
            ("empty anchor", sample.arguments(file: good.path) + ["--anchor", empty.path], "--anchor"),
            (
                "assertion public key",
                [
                    "verify", "assertion", good.path, "--public-key", "%%%", "--client-data", good.path,
                    "--app-id", "A.b", "--previous-counter", "0",
                ], "--public-key"
            ),
            (
                "assertion client data missing",
                [
                    "verify", "assertion", good.path, "--public-key", BinaryText.base64(sample.publicKey),
                    "--client-data", folder.appendingPathComponent("none").path, "--app-id", "A.b", "--previous-counter", "0",
                ],
                "--client-data"
            ),
            ("receipt empty", ["verify", "receipt", empty.path, "--time", sample.time], "FILE"),
        ]
        for (name, arguments, option) in cases {
            let outcome = try CLI.run(arguments)
            #expect(!outcome.signaled && outcome.status == 2, "\(name): \(outcome)")
            #expect(
                outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: ") && outcome.stderr.contains(option),
                "\(name): \(outcome)")
        }
    }
}

/// The DER of the first PEM certificate block (a test-side helper, independent of the CLI's parser).
enum PEMBlocks {
    static func first(_ text: String) -> [UInt8]? {
        guard let begin = text.range(of: "-----BEGIN CERTIFICATE-----"), let end = text.range(of: "-----END CERTIFICATE-----") else {
            return nil
        }
        let body = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        return BinaryText.base64(String(body))
    }
}

/// The assertion side of the input forms, on the generated vectors (no
/// external data needed): base64url objects, a PEM public key, base64url
/// hashes, and the iOS 27 map in the output.
@Suite struct AssertionInputFormTests {
    static func vector(_ id: String) throws -> Vector {
        let vectors = try #require(try? FixtureVectors.loaded.get()).flatMap(\.vectors)
        return try #require(vectors.first { $0.id == id })
    }

    static func bytes(_ v: Vector, _ key: String) throws -> [UInt8] {
        try #require(v.input[key]?.stringValue.flatMap(BinaryText.base64))
    }

    @Test func pemPublicKeyAndBase64urlAssertion() throws {
        let v = try Self.vector("assertion-baseline::spki-key")
        let folder = try CLI.temporaryFolder()
        let assertion = folder.appendingPathComponent("assertion.txt")
        try Data(VerifyInputFormTests.base64url(try Self.bytes(v, "assertion")).utf8).write(to: assertion)
        let clientData = try CLI.file("client-data", try Self.bytes(v, "clientData"), in: folder)
        let pem =
            "-----BEGIN PUBLIC KEY-----\n" + VerifyInputFormTests.wrapped(BinaryText.base64(try Self.bytes(v, "publicKey")), width: 64)
            + "-----END PUBLIC KEY-----\n"
        let pemFile = folder.appendingPathComponent("key.pem")
        try Data(pem.utf8).write(to: pemFile)
        let derFile = try CLI.file("key.der", try Self.bytes(v, "publicKey"), in: folder)
        for key in [
            "--public-key=\(pem)", "--public-key=\(pemFile.path)", "--public-key=\(derFile.path)",
            "--public-key=\(VerifyInputFormTests.base64url(try Self.bytes(v, "publicKey")))",
        ] {
            let outcome = try CLI.run([
                "verify", "assertion", assertion.path, key, "--client-data", clientData.path,
                "--app-id", try #require(v.input["appId"]?.stringValue), "--previous-counter", "0", "--json",
            ])
            #expect(outcome.status == 0 && outcome.stdout.contains(#""counter":1"#), "\(outcome)")
        }
    }

    @Test func iOS27MapIsShown() throws {
        let v = try Self.vector("assertion-ios27::flags-40-apple-map")
        let folder = try CLI.temporaryFolder()
        let assertion = try CLI.file("assertion.bin", try Self.bytes(v, "assertion"), in: folder)
        let clientData = try CLI.file("client-data", try Self.bytes(v, "clientData"), in: folder)
        let outcome = try CLI.run([
            "verify", "assertion", assertion.path, "--public-key", BinaryText.base64(try Self.bytes(v, "publicKey")),
            "--client-data", clientData.path, "--app-id", try #require(v.input["appId"]?.stringValue),
            "--previous-counter", "0",
        ])
        #expect(outcome.status == 0 && outcome.stdout.contains("apple_bundle_version_01"), "\(outcome)")
    }

    /// --client-data-hash and --challenge in base64url without padding.
    @Test func hashesAsBase64url() throws {
        let v = try Self.vector("attestation-baseline::production")
        let folder = try CLI.temporaryFolder()
        let object = try CLI.file("attestation.bin", try Self.bytes(v, "attestationObject"), in: folder)
        let anchor = folder.appendingPathComponent("anchor.pem")
        try Data((v.input["trustAnchorsPem"]?.arrayValue?.first?.stringValue ?? "").utf8).write(to: anchor)
        let common = [
            "verify", "attestation", object.path, "--key-id", VerifyInputFormTests.base64url(try Self.bytes(v, "keyId")),
            "--app-id", try #require(v.input["appId"]?.stringValue), "--environment", "production",
            "--time", try #require(v.input["validationTime"]?.stringValue), "--anchor", anchor.path,
        ]
        let byHash = try CLI.run(common + ["--client-data-hash", VerifyInputFormTests.base64url(try Self.bytes(v, "clientDataHash"))])
        #expect(byHash.status == 0, "\(byHash)")
        let byChallenge = try CLI.run(
            common + ["--challenge", VerifyInputFormTests.base64url(try Self.bytes(v, "challenge")), "--hash-challenge"])
        #expect(byChallenge.status == 0, "\(byChallenge)")
    }
}
