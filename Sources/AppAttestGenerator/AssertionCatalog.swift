import AppAttest
import VectorContract
import Crypto
import Foundation
import StrictCBOR
import TrustSuiteSupport
import TestPKI

/// Everything one assertion vector is built from.
struct AssertionSpec {
    enum Form { case der, raw, prehashed, empty, truncated, sha512, reshaped(([UInt8]) -> [UInt8]) }

    var appId = AppAttestVectors.appId
    var rpIdAppId: String? = nil
    var flags: UInt8 = 0x40
    var counter: UInt32 = 1
    var previousCounter: UInt32 = 0
    var clientData = Array("trustsuite assertion challenge 1".utf8)
    /// What the signature covers, when it differs from `clientData`.
    var signedClientData: [UInt8]? = nil
    var otherSigner = false
    var form: Form = .der
    var authData: [UInt8]? = nil
    var trailing: [UInt8] = []
    /// The map encoded into `trailing`, when it is one (the expected `extensions` output).
    var extensions: CBORValue? = nil
    var publicKey: [UInt8]? = nil
    var structure: (([UInt8], [UInt8]) -> CBORValue)? = nil
    var bytes: (([UInt8]) -> [UInt8])? = nil
    /// Launch-policy inputs (docs/vectors.md names), merged into the vector input.
    var launchPolicy: [String: JSONValue] = [:]
}

typealias AssertionCase = MutationCase<AssertionSpec>

extension AssertionSpec: TrailingMapSpec {}

extension AppAttestVectors {
    func assertionAuthData(_ spec: AssertionSpec) -> [UInt8] {
        if let data = spec.authData { return data }
        var data = Array(SHA256.hash(data: Array((spec.rpIdAppId ?? Self.appId).utf8)))
        data.append(spec.flags)
        data += withUnsafeBytes(of: spec.counter.bigEndian, Array.init)
        return data + spec.trailing
    }

    func buildAssertion(_ spec: AssertionSpec) throws -> [String: JSONValue] {
        let authData = assertionAuthData(spec)
        var hasher = SHA256()
        hasher.update(data: authData)
        hasher.update(data: Array(SHA256.hash(data: spec.signedClientData ?? spec.clientData)))
        let nonce = Array(hasher.finalize())
        let key = spec.otherSigner ? pki.p256("other-signer") : credentialKey
        let signature: [UInt8]
        switch spec.form {
        case .der: signature = Array(try key.signature(for: nonce).derRepresentation)
        case .raw: signature = Array(try key.signature(for: nonce).rawRepresentation)
        case .prehashed: signature = Array(try key.signature(for: RawDigest(bytes: nonce)).derRepresentation)
        case .empty: signature = []
        case .truncated: signature = Array(try key.signature(for: nonce).derRepresentation.dropLast())
        case .sha512: signature = Array(try key.signature(for: SHA512.hash(data: nonce)).derRepresentation)
        case .reshaped(let change): signature = change(Array(try key.signature(for: nonce).derRepresentation))
        }
        let value =
            spec.structure?(signature, authData)
            ?? .map([(.text("signature"), .bytes(signature)), (.text("authenticatorData"), .bytes(authData))])
        var object = CBOREncoder.canonical(value)
        if let mutate = spec.bytes { object = mutate(object) }
        let input: [String: JSONValue] = [
            "assertion": .b64(object), "clientData": .b64(spec.clientData),
            "publicKey": .b64(spec.publicKey ?? Array(credentialKey.publicKey.x963Representation)),
            "appId": .string(spec.appId), "previousCounter": .int(Int64(spec.previousCounter)),
        ]
        return input.merging(spec.launchPolicy) { _, policy in policy }
    }

    func assertionCases() -> [AssertionCase] {
        let T = "Tampered"
        var list: [AssertionCase] = [
            AssertionCase("baseline::first", "counter 1 after 0, 37-byte authenticator data with flags 0x40 (as real assertions)", nil) {
                _ in
            },
            AssertionCase("baseline::spki-key", "stored key given as SubjectPublicKeyInfo DER", nil) {
                $0.publicKey = Array(self.credentialKey.publicKey.derRepresentation)
            },
            AssertionCase("baseline::jump", "counter 100 after 1", nil) {
                $0.counter = 100
                $0.previousCounter = 1
            },
            AssertionCase("baseline::max", "counter 2^32-1 after 2^32-2", nil) {
                $0.counter = UInt32.max
                $0.previousCounter = UInt32.max - 1
            },
            AssertionCase("baseline::flags-up", "flags 0x41", nil) { $0.flags = 0x41 },
            AssertionCase("baseline::flags-zero", "flags 0x00", nil) { $0.flags = 0x00 },
            AssertionCase(
                "baseline::flags-80", "flags 0x80 (ED) and nothing after the header: the flags decide nothing", nil, flags: ["Extensions"]
            ) {
                $0.flags = 0x80
            },
            AssertionCase("baseline::flags-c0", "flags 0xC0 (AT, ED) and nothing after the header", nil, flags: ["Extensions"]) {
                $0.flags = 0xC0
            },
            AssertionCase("baseline::empty-client-data", "empty client data", nil) { $0.clientData = [] },
            AssertionCase("baseline::long-client-data", "4 KiB of client data", nil) {
                $0.clientData = [UInt8](repeating: 0x61, count: 4096)
            },
            AssertionCase("baseline::json-client-data", "client data as JSON with a challenge", nil) {
                $0.clientData = Array(#"{"challenge":"c2VydmVy","action":"buy"}"#.utf8)
            },
            AssertionCase("baseline::extension-map", "ED set (AT clear) with an extension map", nil) {
                $0.flags = 0x80
                $0.appendMap(.map([(.text("k"), .int(1))]))
            },
        ]
        // docs/models/app-attest.md (Assertion): after the 37 bytes, exactly one ctap2 map, whatever the flags.
        for flags: UInt8 in [0x40, 0xC0, 0x80, 0x00] {
            let name = String(format: "%02x", flags)
            list.append(
                AssertionCase(
                    "ios27::flags-\(name)-apple-map", "flags 0x\(name) with the apple_* map iOS 27 appends", nil, flags: ["Extensions"]
                ) {
                    $0.flags = flags
                    $0.appendMap(AppleExtensions.map)
                })
        }
        for (i, counter) in [UInt32(2), 3, 10, 1000, 65_536, 16_777_216, 0x8000_0000].enumerated() {
            list.append(
                AssertionCase("baseline::counter-\(counter)", "counter \(counter) after \(counter - 1)", nil) {
                    $0.counter = counter
                    $0.previousCounter = counter - 1
                    $0.clientData = Array("challenge \(i)".utf8)
                })
        }
        list += [
            AssertionCase("signature::other-client-data", "signature over different client data", .signatureInvalid, flags: [T]) {
                $0.signedClientData = Array("another challenge".utf8)
            },
            AssertionCase("signature::other-key", "signed by another key", .signatureInvalid, flags: [T]) { $0.otherSigner = true },
            AssertionCase("signature::prehashed-nonce", "nonce signed as a pre-hashed digest instead of hashed by ES256", .signatureInvalid)
            { $0.form = .prehashed },
            AssertionCase("signature::sha512", "ECDSA with SHA-512 of the nonce", .signatureInvalid) { $0.form = .sha512 },
            AssertionCase("signature::raw-form", "signature as raw r‖s instead of DER", .signatureInvalid) { $0.form = .raw },
            AssertionCase("signature::empty", "empty signature", .signatureInvalid, flags: [T]) { $0.form = .empty },
            AssertionCase("signature::truncated", "DER signature missing its last byte", .signatureInvalid, flags: [T]) {
                $0.form = .truncated
            },
            AssertionCase("signature::counter-changed", "counter changed after signing", .signatureInvalid, flags: [T]) {
                $0.bytes = { bytes in
                    var out = bytes
                    out[out.count - 1] ^= 0x02
                    return out
                }
            },
            AssertionCase("signature::rpid-changed", "rpIdHash changed after signing", .signatureInvalid, flags: [T]) {
                $0.bytes = { bytes in
                    var out = bytes
                    out[out.count - 37] ^= 0x01
                    return out
                }
            },
            AssertionCase(
                "signature::client-data-hash-as-data", "verifier given SHA-256(clientData) instead of clientData", .signatureInvalid
            ) {
                $0.signedClientData = $0.clientData
                $0.clientData = Array(SHA256.hash(data: $0.clientData))
            },
            AssertionCase("signature::wrong-stored-key", "the stored key is another key", .signatureInvalid) {
                $0.publicKey = Array(self.pki.p256("other-signer").publicKey.x963Representation)
            },
            AssertionCase("signature::der-trailing-byte", "DER signature with a byte appended", .signatureInvalid, flags: [T]) {
                $0.form = .reshaped { $0 + [0] }
            },
            AssertionCase(
                "signature::der-long-form-length", "DER signature with a long-form SEQUENCE length (BER)", .signatureInvalid, flags: [T]
            ) {
                $0.form = .reshaped { [0x30, 0x81] + $0.dropFirst() }
            },
            AssertionCase("signature::der-indefinite", "signature SEQUENCE with indefinite length (BER)", .signatureInvalid, flags: [T]) {
                $0.form = .reshaped { [0x30, 0x80] + $0.dropFirst(2) + [0, 0] }
            },
            AssertionCase("signature::r-and-s-swapped", "r and s exchanged", .signatureInvalid, flags: [T]) {
                $0.form = .reshaped { der in
                    guard der.count > 4 else { return der }
                    let rLength = Int(der[3])
                    let r = Array(der[2..<(4 + rLength)])
                    let s = Array(der[(4 + rLength)...])
                    return [0x30, der[1]] + s + r
                }
            },
            AssertionCase("rp-id::other-app", "appId of another app", .rpIdMismatch) { $0.appId = "ABCDE12345.org.trustsuite.other" },
            AssertionCase("rp-id::signed-for-other-app", "authenticator data made for another app, signed", .rpIdMismatch, flags: [T]) {
                $0.rpIdAppId = "ABCDE12345.org.attacker.app"
            },
            AssertionCase("rp-id::bundle-only", "appId without the team prefix", .rpIdMismatch) { $0.appId = "org.trustsuite.example" },
            AssertionCase("rp-id::empty", "empty appId", .rpIdMismatch) { $0.appId = "" },
            AssertionCase("rp-id::team-only", "appId of the team alone", .rpIdMismatch) { $0.appId = "ABCDE12345" },
            AssertionCase("counter::zero-after-zero", "counter 0, stored 0", .counterNotIncreasing, flags: ["Replay"]) { $0.counter = 0 },
            AssertionCase("counter::equal", "counter equal to the stored one (replay)", .counterNotIncreasing, flags: ["Replay"]) {
                $0.counter = 5
                $0.previousCounter = 5
            },
            AssertionCase("counter::decreased", "counter below the stored one", .counterNotIncreasing, flags: ["Replay"]) {
                $0.counter = 4
                $0.previousCounter = 5
            },
            AssertionCase("counter::max-equal", "counter 2^32-1, stored 2^32-1", .counterNotIncreasing, flags: ["Replay"]) {
                $0.counter = UInt32.max
                $0.previousCounter = UInt32.max
            },
            AssertionCase("counter::wrapped", "counter 0 after 2^32-1 (no wrap-around)", .counterNotIncreasing, flags: ["Replay"]) {
                $0.counter = 0
                $0.previousCounter = UInt32.max
            },
            AssertionCase("counter::one-after-max", "counter 1 after 2^32-1", .counterNotIncreasing, flags: ["Replay"]) {
                $0.counter = 1
                $0.previousCounter = UInt32.max
            },
            AssertionCase("parse::not-a-map", "assertion is an array", .malformedAssertion, flags: [T]) {
                $0.structure = { .array([.bytes($0), .bytes($1)]) }
            },
            AssertionCase("parse::signature-missing", "no signature", .malformedAssertion, flags: [T]) {
                $0.structure = { .map([(.text("authenticatorData"), .bytes($1))]) }
            },
            AssertionCase("parse::authdata-missing", "no authenticatorData", .malformedAssertion, flags: [T]) {
                $0.structure = { s, _ in .map([(.text("signature"), .bytes(s))]) }
            },
            AssertionCase("parse::signature-text", "signature as a text string", .malformedAssertion, flags: [T]) {
                $0.structure = { _, a in .map([(.text("signature"), .text("sig")), (.text("authenticatorData"), .bytes(a))]) }
            },
            AssertionCase("parse::extra-key", "an extra key", .malformedAssertion, flags: [T]) {
                $0.structure = {
                    .map([(.text("signature"), .bytes($0)), (.text("authenticatorData"), .bytes($1)), (.text("x"), .int(1))])
                }
            },
            AssertionCase("parse::unsorted", "authenticatorData before signature (not canonical)", .malformedAssertion, flags: [T]) {
                $0.bytes = { bytes in
                    guard let entries = try? CBORDecoder(mode: .ctap2).decode(bytes).mapValue else { return bytes }
                    return [0xA2] + entries.reversed().flatMap { CBOREncoder.canonical($0.key) + CBOREncoder.canonical($0.value) }
                }
            },
            AssertionCase("parse::authdata-text", "authenticatorData as text", .malformedAssertion, flags: [T]) {
                $0.structure = { s, _ in .map([(.text("signature"), .bytes(s)), (.text("authenticatorData"), .text("x"))]) }
            },
            AssertionCase("parse::integer-keys", "keys as integers 1 and 2", .malformedAssertion, flags: [T]) {
                $0.structure = { .map([(.int(1), .bytes($0)), (.int(2), .bytes($1))]) }
            },
            AssertionCase("parse::trailing-byte", "a byte after the map", .malformedAssertion, flags: [T]) { $0.bytes = { $0 + [0] } },
            AssertionCase("parse::empty", "empty input", .malformedAssertion, flags: [T]) { $0.bytes = { _ in [] } },
            AssertionCase("parse::indefinite", "indefinite-length map", .malformedAssertion, flags: [T]) {
                $0.bytes = { [0xBF] + $0.dropFirst() + [0xFF] }
            },
        ]
        for fraction in [0.1, 0.5, 0.9] {
            list.append(
                AssertionCase(
                    "parse::truncated-\(Int(fraction * 100))pct", "assertion truncated to \(Int(fraction * 100)) %", .malformedAssertion,
                    flags: [T]
                ) {
                    $0.bytes = { Array($0.prefix(Int(Double($0.count) * fraction))) }
                })
        }
        list += [
            AssertionCase("authdata::36-bytes", "36-byte authenticator data", .malformedAuthenticatorData, flags: [T]) {
                $0.authData = Array(self.assertionAuthData(AssertionSpec()).prefix(36))
            },
            AssertionCase("authdata::empty", "empty authenticator data", .malformedAuthenticatorData, flags: [T]) { $0.authData = [] },
            AssertionCase("authdata::trailing-garbage", "a zero byte after the 37 bytes", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = [0]
            },
            AssertionCase("authdata::trailing-two-maps", "two maps after the 37 bytes", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = [0xA0, 0xA0]
            },
            AssertionCase("authdata::credential-cut", "AT set with 10 bytes of credential data", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = [UInt8](repeating: 0x61, count: 10)
            },
            AssertionCase("authdata::trailing-array", "a CBOR array after the header", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = CBOREncoder.canonical(.array([.int(1)]))
            },
            AssertionCase(
                "authdata::trailing-map-then-byte", "the apple_* map followed by one byte", .malformedAuthenticatorData, flags: [T]
            ) {
                $0.trailing = CBOREncoder.canonical(AppleExtensions.map) + [0x00]
            },
            AssertionCase(
                "authdata::trailing-map-unsorted", "a map whose keys are not in ctap2 order", .malformedAuthenticatorData, flags: [T]
            ) {
                // {"bb": 1, "a": 2}: longer key first breaks ctap2's length-first order.
                $0.trailing = [0xA2, 0x62, 0x62, 0x62, 0x01, 0x61, 0x61, 0x02]
            },
            AssertionCase("authdata::trailing-map-indefinite", "an indefinite-length map", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = [0xBF, 0x61, 0x6B, 0x01, 0xFF]
            },
            AssertionCase(
                "authdata::trailing-credential-data", "attested credential data (aaguid, id, key) after the header",
                .malformedAuthenticatorData, flags: [T]
            ) {
                $0.trailing = AppAttestEnvironment.production.aaguid + [0x00, 0x20] + self.keyId + self.coseKey(self.coseEntries)
            },
        ]
        return list
    }
}
