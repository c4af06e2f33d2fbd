import AppAttest
import ConformanceKit
import Crypto
import Foundation
import OpenSSLOracle
import Testing
import TestSupport

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

    struct File: Decodable {
        struct Group: Decodable {
            struct Key: Decodable { let uncompressed: String }
            struct Test: Decodable { let tcId: Int; let comment: String; let msg: String; let sig: String; let result: String }
            let publicKey: Key
            let tests: [Test]
        }
        let numberOfTests: Int
        let testGroups: [Group]
    }

    static func load(_ name: String) -> [Case] {
        guard let data = Locations.external("wycheproof/\(name).json"),
              let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.testGroups.flatMap { group in
            group.tests.map { test in
                Case(file: name, tcId: test.tcId, comment: test.comment, publicKey: BinaryText.hex(group.publicKey.uncompressed) ?? [],
                     message: BinaryText.hex(test.msg) ?? [], signature: BinaryText.hex(test.sig) ?? [],
                     // Wycheproof's "acceptable" does not occur in these files; anything not valid must fail.
                     valid: test.result == "valid")
            }
        }
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
