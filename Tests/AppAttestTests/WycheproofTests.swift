import AppAttest
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import OpenSSLOracle
import Testing
import TestSupport
import TrustSuiteSupport

/// Wycheproof ECDSA P-256 / SHA-256 (DER: 484 tests, P1363: 262 tests)
/// through the assertion signature path (`ES256`) and through OpenSSL.
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct WycheproofTests {
    struct Case: Sendable, CustomStringConvertible {
        let file: String
        let tcId: Int
        let comment: String
        let publicKey: [UInt8]
        let message: [UInt8]
        let signature: [UInt8]
        let valid: Bool
        var description: String { "\(file) tcId \(tcId) \(comment)" }
    }

    /// A Wycheproof file; hex fields decode strictly (``HexBytes``), so a
    /// malformed one fails the file instead of reading as empty bytes.
    struct File: Decodable {
        struct Group: Decodable {
            struct Key: Decodable { let uncompressed: HexBytes }
            struct Test: Decodable { let tcId: Int; let comment: String; let msg: HexBytes; let sig: HexBytes; let result: String }
            let publicKey: Key
            let tests: [Test]
        }
        let numberOfTests: Int
        let testGroups: [Group]
    }

    static func parse(_ data: Data, name: String) throws -> [Case] {
        try JSONDecoder().decode(File.self, from: data).testGroups.flatMap { group in
            group.tests.map { test in
                Case(
                    file: name, tcId: test.tcId, comment: test.comment, publicKey: group.publicKey.uncompressed.bytes,
                    message: test.msg.bytes, signature: test.sig.bytes,
                    // Wycheproof's "acceptable" does not occur in these files; anything not valid must fail.
                    valid: test.result == "valid")
            }
        }
    }

    /// The cases of an external file; none when it is missing or malformed (``allVectorsLoaded`` then fails).
    static func load(_ name: String) -> [Case] {
        guard let data = Locations.external("wycheproof/\(name).json") else { return [] }
        return (try? parse(data, name: name)) ?? []
    }

    /// A malformed hex field (odd length, a non-hex digit) refuses the file.
    @Test(arguments: ["zz", "0", "3045xx"])
    func refusesMalformedHex(_ sig: String) {
        let file =
            #"{"numberOfTests": 1, "testGroups": [{"publicKey": {"uncompressed": "04"}, "tests": [{"tcId": 1, "comment": "", "msg": "", "sig": "\#(sig)", "result": "invalid"}]}]}"#
        #expect(throws: (any Error).self) { try Self.parse(Data(file.utf8), name: "bad") }
    }

    static let der = load("ecdsa_secp256r1_sha256_test")
    static let p1363 = load("ecdsa_secp256r1_sha256_p1363_test")

    @Test func allVectorsLoaded() {
        #expect(Self.der.count == 484)
        #expect(Self.p1363.count == 262)
    }

    @Test(arguments: der)
    func derThroughES256(_ c: Case) throws {
        let key = try #require(ES256.publicKey(c.publicKey))
        #expect(ES256.verify(derSignature: c.signature, message: c.message, publicKey: key) == c.valid)
    }

    @Test(arguments: der)
    func derThroughOpenSSL(_ c: Case) {
        #expect(OpenSSLOracle.verifyECDSAP256(publicKey: c.publicKey, message: c.message, derSignature: c.signature) == c.valid)
    }

    @Test(arguments: p1363)
    func p1363ThroughES256(_ c: Case) throws {
        let key = try #require(ES256.publicKey(c.publicKey))
        #expect(ES256.verify(rawSignature: c.signature, message: c.message, publicKey: key) == c.valid)
    }

    @Test(arguments: p1363)
    func p1363ThroughOpenSSL(_ c: Case) {
        #expect(OpenSSLOracle.verifyECDSAP256(publicKey: c.publicKey, message: c.message, rawSignature: c.signature) == c.valid)
    }
}
