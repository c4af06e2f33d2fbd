import AppAttest
import VectorContract
import TrustSuiteSupport
import Crypto
import Foundation
import StrictCBOR
import TestPKI

/// One named mutation of a baseline spec (nil error: valid).
struct MutationCase<Spec> {
    let id: String
    let comment: String
    let error: AppAttestError.Code?
    let flags: [String]
    let mutate: (inout Spec) -> Void

    init(_ id: String, _ comment: String, _ error: AppAttestError.Code?, flags: [String] = [], _ mutate: @escaping (inout Spec) -> Void) {
        self.id = id
        self.comment = comment
        self.error = error
        self.flags = flags
        self.mutate = mutate
    }
}

typealias AttestationCase = MutationCase<AttestationSpec>

extension AppAttestVectors {
    func truncate(_ fraction: Double) -> ([UInt8]) -> [UInt8] { { Array($0.prefix(Int(Double($0.count) * fraction))) } }

    func cases() -> [AttestationCase] {
        let now = pki.now
        let T = "Tampered"
        var list: [AttestationCase] = [
            AttestationCase("baseline::production", "valid baseline, production aaguid", nil) { _ in },
            AttestationCase("baseline::development", "valid baseline, development aaguid", nil) { $0.environment = .development },
            AttestationCase("baseline::trailing-map-ed-clear", "trailing CBOR map after the COSE key with ED clear, as iOS 27 sends", nil) {
                $0.appendMap(AppleExtensions.map)
            },
            AttestationCase("baseline::trailing-map-ed-set", "extension map with ED set", nil) {
                $0.flags = 0xC0
                $0.appendMap(.map([(.text("k"), .int(1))]))
            },
            AttestationCase(
                "baseline::raw-challenge", "clientDataHash is a 21-byte raw challenge, as in Apple's guide", nil, flags: ["RawChallenge"]
            ) {
                $0.clientDataHash = Array("test_server_challenge".utf8)
            },
            AttestationCase(
                "baseline::at-not-before",
                "validation time exactly at the credential certificate's notBefore (the receipt, made 24 h later, is not yet valid)",
                nil, flags: ["ValidityBoundary"]
            ) {
                $0.validationTime = $0.leafNotBefore
                $0.receiptStatus = AppAttestError.Code.receiptNotYetValid.rawValue
            },
            AttestationCase(
                "baseline::at-not-after", "validation time exactly at the credential certificate's notAfter", nil,
                flags: ["ValidityBoundary"]
            ) {
                $0.validationTime = $0.leafNotAfter
            },
            AttestationCase("baseline::flags-up-uv", "UP and UV set besides AT", nil) { $0.flags = 0x45 },
            // docs/models/app-attest.md, x5c: any certificate in the trust store is an anchor.
            AttestationCase("anchors::intermediate-and-root", "the trust store holds the intermediate as well as the root", nil) {
                $0.anchors = .intermediateAndRoot
            },
            AttestationCase("anchors::intermediate-only", "the trust store holds only the intermediate", nil) {
                $0.anchors = .intermediateOnly
            },
        ]
        // docs/models/app-attest.md (Receipt): the embedded receipt is verified and reported, not part of the nine steps.
        let receiptReports: [(String, String, AppAttestError.Code, (inout AttestationSpec) -> Void)] = [
            ("type-receipt", "the embedded receipt is of type RECEIPT", .receiptTypeMismatch, { $0.receipt = { $0.kind = "RECEIPT" } }),
            (
                "other-app", "the embedded receipt names another App ID", .receiptAppIdMismatch,
                {
                    $0.receipt = { $0.appId = "ABCDE12345.org.attacker.app" }
                }
            ),
            (
                "other-certificate", "field 3 of the receipt is another credential certificate", .receiptKeyMismatch,
                {
                    let other = self.credentialCertificate
                    $0.receipt = { $0.attestedCertificate = other }
                }
            ),
            (
                "unmarked-signer", "the receipt is signed by a developer certificate of the right CA (no marker)", .receiptSignerInvalid,
                {
                    $0.receipt = { $0.signer = .unmarked }
                }
            ),
            (
                "apple-anchor", "no receipt anchors given: Apple Root CA - G3, which the test receipt does not chain to",
                .receiptChainInvalid,
                {
                    $0.receiptAnchorsGiven = false
                }
            ),
            (
                "not-cms", "the receipt's content type is id-data, not signedData", .malformedReceipt,
                {
                    $0.receipt = { $0.contentTypeOID = [1, 2, 840, 113549, 1, 7, 1] }
                }
            ),
            (
                "created-later", "the receipt was created an hour after the validation time", .receiptNotYetValid,
                {
                    let later = now.addingTimeInterval(3600)
                    $0.receipt = { $0.creation = later }
                }
            ),
        ]
        for (name, comment, code, edit) in receiptReports {
            list.append(
                AttestationCase("receipt::\(name)", "\(comment): the attestation verifies and reports \(code)", nil) {
                    edit(&$0)
                    $0.receiptStatus = code.rawValue
                })
            list.append(
                AttestationCase(
                    "receipt-required::\(name)", "\(comment), with requireReceipt: the receipt's error is the attestation's",
                    code, flags: ["ReceiptRequired"]
                ) {
                    edit(&$0)
                    $0.requireReceipt = true
                })
        }
        list.append(
            AttestationCase("receipt-required::verified", "requireReceipt with a good receipt", nil, flags: ["ReceiptRequired"]) {
                $0.requireReceipt = true
            })
        // Parse failures of the object itself.
        for (fraction, name) in [(0.0, "empty"), (0.001, "1-byte"), (0.1, "10pct"), (0.5, "half"), (0.9, "90pct"), (0.999, "last-byte")] {
            list.append(
                AttestationCase(
                    "parse::truncated-\(name)", "attestation object truncated (\(name))", .malformedAttestationObject, flags: [T]
                ) {
                    $0.bytes = self.truncate(fraction)
                })
        }
        list += [
            AttestationCase("parse::trailing-byte", "one byte after the CBOR map", .malformedAttestationObject, flags: [T]) {
                $0.bytes = { $0 + [0] }
            },
            AttestationCase("parse::not-a-map", "top level is an array", .malformedAttestationObject, flags: [T]) {
                $0.structure = { .array([$0.fmt, .bytes($0.authData)]) }
            },
            AttestationCase("parse::fmt-bytes", "fmt is a byte string", .malformedAttestationObject, flags: [T]) {
                $0.fmt = .bytes(Array("apple-appattest".utf8))
            },
            AttestationCase("parse::fmt-missing", "fmt missing", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (
                            .text("attStmt"),
                            .map([(.text("x5c"), .array(p.x5c.map(CBORValue.bytes))), (.text("receipt"), .bytes(p.receipt))])
                        ), (.text("authData"), .bytes(p.authData)),
                    ])
                }
            },
            AttestationCase("parse::attstmt-not-map", "attStmt is an array", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([(.text("fmt"), p.fmt), (.text("attStmt"), .array([])), (.text("authData"), .bytes(p.authData))])
                }
            },
            AttestationCase("parse::authdata-text", "authData is a text string", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (.text("fmt"), p.fmt),
                        (
                            .text("attStmt"),
                            .map([(.text("x5c"), .array(p.x5c.map(CBORValue.bytes))), (.text("receipt"), .bytes(p.receipt))])
                        ), (.text("authData"), .text("abc")),
                    ])
                }
            },
            AttestationCase("parse::authdata-missing", "authData missing", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (.text("fmt"), p.fmt),
                        (
                            .text("attStmt"),
                            .map([(.text("x5c"), .array(p.x5c.map(CBORValue.bytes))), (.text("receipt"), .bytes(p.receipt))])
                        ),
                    ])
                }
            },
            AttestationCase("parse::x5c-not-array", "x5c is a byte string", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (.text("fmt"), p.fmt),
                        (.text("attStmt"), .map([(.text("x5c"), .bytes(p.x5c[0])), (.text("receipt"), .bytes(p.receipt))])),
                        (.text("authData"), .bytes(p.authData)),
                    ])
                }
            },
            AttestationCase("parse::x5c-item-text", "x5c holds a text string", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (.text("fmt"), p.fmt),
                        (
                            .text("attStmt"),
                            .map([(.text("x5c"), .array([.bytes(p.x5c[0]), .text("x")])), (.text("receipt"), .bytes(p.receipt))])
                        ), (.text("authData"), .bytes(p.authData)),
                    ])
                }
            },
            AttestationCase("parse::receipt-missing", "attStmt has no receipt", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (.text("fmt"), p.fmt), (.text("attStmt"), .map([(.text("x5c"), .array(p.x5c.map(CBORValue.bytes)))])),
                        (.text("authData"), .bytes(p.authData)),
                    ])
                }
            },
            AttestationCase("parse::extra-key", "an unknown top-level key", .malformedAttestationObject, flags: [T]) {
                $0.structure = { p in
                    guard case .map(var entries, _) = p.standard else { return p.standard }
                    entries.append(CBORMapEntry(.text("zzz"), .null))
                    return .map(entries, indefinite: false)
                }
            },
            AttestationCase(
                "parse::unsorted-keys", "top-level keys in non-canonical order (authData first)", .malformedAttestationObject, flags: [T]
            ) {
                $0.bytes = { bytes in
                    // Re-encode with authData before fmt: not CTAP2 canonical.
                    guard let entries = try? CBORDecoder(mode: .ctap2).decode(bytes).mapValue else { return bytes }
                    var out: [UInt8] = [0xA3]
                    for entry in entries.reversed() {
                        out += CBOREncoder.canonical(entry.key) + CBOREncoder.canonical(entry.value)
                    }
                    return out
                }
            },
            AttestationCase("parse::indefinite-map", "top-level map with indefinite length", .malformedAttestationObject, flags: [T]) {
                $0.bytes = { [0xBF] + $0.dropFirst() + [0xFF] }
            },
            AttestationCase("format::packed", "fmt is packed", .unsupportedFormat, flags: [T]) { $0.fmt = .text("packed") },
            AttestationCase("format::apple", "fmt is apple", .unsupportedFormat, flags: [T]) { $0.fmt = .text("apple") },
            AttestationCase("format::empty", "fmt is empty", .unsupportedFormat, flags: [T]) { $0.fmt = .text("") },
            AttestationCase("format::case", "fmt in upper case", .unsupportedFormat, flags: [T]) { $0.fmt = .text("APPLE-APPATTEST") },
            AttestationCase("x5c::length-0", "x5c is empty", .missingCertificates, flags: [T]) { $0.chain = .empty },
            AttestationCase("x5c::length-1", "x5c holds only the credential certificate", .missingCertificates, flags: [T]) {
                $0.chain = .leafOnly
            },
            AttestationCase("x5c::absent", "attStmt has no x5c", .missingCertificates, flags: [T]) {
                $0.structure = { p in
                    .map([
                        (.text("fmt"), p.fmt), (.text("attStmt"), .map([(.text("receipt"), .bytes(p.receipt))])),
                        (.text("authData"), .bytes(p.authData)),
                    ])
                }
            },
            AttestationCase("chain::length-3", "x5c carries the root as a third certificate", .certificateChainInvalid, flags: [T]) {
                $0.chain = .withRoot
            },
            AttestationCase("chain::reordered", "intermediate first, credential certificate second", .certificateChainInvalid, flags: [T]) {
                $0.chain = .reversed
            },
            AttestationCase(
                "chain::attacker-rooted", "credential certificate issued by an attacker's intermediate with the same names",
                .certificateChainInvalid, flags: [T]
            ) { $0.chain = .attacker },
            AttestationCase("chain::attacker-anchor", "the configured anchor is the attacker's root", .certificateChainInvalid, flags: [T])
            { $0.anchors = .attackerRoot },
            AttestationCase("chain::apple-anchor", "default Apple anchor: the test PKI does not chain to it", .certificateChainInvalid) {
                $0.anchors = .appleDefault
            },
            AttestationCase(
                "chain::ca-without-key-cert-sign", "the intermediate's key usage lacks keyCertSign (RFC 5280 4.2.1.3)",
                .certificateChainInvalid,
                flags: [T]
            ) { $0.chain = .intermediateWithoutKeyCertSign },
            AttestationCase("chain::corrupt-leaf", "credential certificate DER cut in half", .certificateChainInvalid, flags: [T]) {
                $0.chain = .corruptLeaf
            },
            AttestationCase(
                "chain::expired-1s", "validation time one second after notAfter", .certificateChainInvalid,
                flags: ["Expired", "ClockTolerance"]
            ) {
                $0.validationTime = $0.leafNotAfter.addingTimeInterval(1)
            },
            AttestationCase(
                "chain::not-yet-valid-1s", "validation time one second before notBefore", .certificateChainInvalid,
                flags: ["NotYetValid", "ClockTolerance"]
            ) {
                $0.validationTime = $0.leafNotBefore.addingTimeInterval(-1)
            },
            AttestationCase("chain::expired-long-ago", "certificate expired a year before", .certificateChainInvalid, flags: ["Expired"]) {
                $0.leafNotBefore = now.addingTimeInterval(-400 * 86_400)
                $0.leafNotAfter = now.addingTimeInterval(-397 * 86_400)
            },
            AttestationCase(
                "chain::intermediate-expired", "validation time after the intermediate's validity (2045)", .certificateChainInvalid,
                flags: ["Expired"]
            ) {
                $0.validationTime = Date(timeIntervalSince1970: 2_400_000_000)
                $0.leafNotAfter = Date(timeIntervalSince1970: 2_500_000_000)
            },
            AttestationCase(
                "nonce::extension-missing", "credential certificate without the nonce extension", .nonceExtensionMissing, flags: [T]
            ) { $0.nonceExtension = nil },
        ]
        for (name, shape) in [
            ("bare-octets", NonceShapes.bare), ("tag-2", NonceShapes.wrongTag), ("implicit-tag", NonceShapes.implicit),
            ("31-bytes", NonceShapes.short), ("33-bytes", NonceShapes.long), ("extra-field", NonceShapes.extra),
            ("octets-only", NonceShapes.octetOnly), ("trailing-byte", NonceShapes.trailing),
        ] {
            list.append(
                AttestationCase(
                    "nonce::reshaped-\(name)", "nonce extension reshaped (\(name)); it must be parsed, not sliced", .nonceExtensionMissing,
                    flags: [T]
                ) {
                    $0.nonceExtension = shape
                })
        }
        list += [
            AttestationCase(
                "nonce::client-data-hash-changed", "clientDataHash differs from the one the nonce was made with", .nonceMismatch, flags: [T]
            ) {
                $0.nonceClientDataHash = $0.clientDataHash
                $0.clientDataHash[0] ^= 1
            },
            AttestationCase("nonce::hashed-challenge", "the caller hashed a raw challenge the app passed as is", .nonceMismatch) {
                $0.challenge = Array("test_server_challenge".utf8)
                $0.nonceClientDataHash = Array("test_server_challenge".utf8)
                $0.clientDataHash = Array(SHA256.hash(data: Array("test_server_challenge".utf8)))
            },
            AttestationCase("nonce::empty-client-data-hash", "clientDataHash empty", .nonceMismatch, flags: [T]) {
                $0.nonceClientDataHash = $0.clientDataHash
                $0.clientDataHash = []
            },
            AttestationCase(
                "nonce::authdata-flipped", "first byte of rpIdHash changed after the certificate was issued", .nonceMismatch, flags: [T]
            ) {
                // authData is the last value of the canonical map: its first byte sits authData.count from the end.
                let length = self.authData(self.baseline()).count
                $0.bytes = { bytes in
                    var out = bytes
                    out[out.count - length] ^= 0x01
                    return out
                }
            },
            AttestationCase("nonce::zero", "nonce extension holds 32 zero bytes", .nonceMismatch, flags: [T]) {
                $0.nonceExtension = { _ in NonceShapes.standard([UInt8](repeating: 0, count: 32)) }
            },
            AttestationCase("key-id::flipped", "keyId with one bit changed", .keyIdMismatch, flags: [T]) {
                var keyId = self.keyId
                keyId[31] ^= 0x80
                $0.keyId = keyId
            },
            AttestationCase("key-id::of-compressed-key", "keyId is SHA-256 of the compressed point", .keyIdMismatch) {
                $0.keyId = Array(SHA256.hash(data: self.credentialKey.publicKey.compressedRepresentation))
            },
            AttestationCase("key-id::empty", "keyId empty", .keyIdMismatch, flags: [T]) { $0.keyId = [] },
            AttestationCase("rp-id::other-bundle", "appId names another bundle", .rpIdMismatch) {
                $0.appId = "ABCDE12345.org.trustsuite.other"
            },
            AttestationCase("rp-id::other-team", "appId names another team", .rpIdMismatch) {
                $0.appId = "ZZZZZ99999.org.trustsuite.example"
            },
            AttestationCase("rp-id::bundle-only", "appId without the team prefix", .rpIdMismatch) { $0.appId = "org.trustsuite.example" },
            AttestationCase("rp-id::case", "appId differs in case", .rpIdMismatch) { $0.appId = "ABCDE12345.org.trustsuite.Example" },
            AttestationCase("rp-id::authdata-other-app", "authData made for another app (nonce consistent)", .rpIdMismatch, flags: [T]) {
                $0.rpIdAppId = "ABCDE12345.org.attacker.app"
            },
            AttestationCase("counter::one", "signCount 1", .counterNotZero, flags: [T]) { $0.signCount = 1 },
            AttestationCase("counter::max", "signCount 2^32-1", .counterNotZero, flags: [T]) { $0.signCount = UInt32.max },
            AttestationCase("aaguid::development-as-production", "development aaguid, production configured", .aaguidMismatch) {
                $0.aaguid = AppAttestEnvironment.development.aaguid
            },
            AttestationCase("aaguid::production-as-development", "production aaguid, development configured", .aaguidMismatch) {
                $0.environment = .development
                $0.aaguid = AppAttestEnvironment.production.aaguid
            },
            AttestationCase("aaguid::padding-ones", "appattest padded with 0x01", .aaguidMismatch, flags: [T]) {
                $0.aaguid = Array("appattest".utf8) + [UInt8](repeating: 1, count: 7)
            },
            AttestationCase("aaguid::zeros", "all-zero aaguid", .aaguidMismatch, flags: [T]) {
                $0.aaguid = [UInt8](repeating: 0, count: 16)
            },
            AttestationCase("credential-id::flipped", "credentialId with one bit changed", .credentialIdMismatch, flags: [T]) {
                var id = self.keyId
                id[0] ^= 1
                $0.credentialId = id
            },
            AttestationCase("credential-id::short", "credentialId of 31 bytes", .credentialIdMismatch, flags: [T]) {
                $0.credentialId = Array(self.keyId.prefix(31))
            },
            AttestationCase("credential-id::empty", "credentialId empty", .credentialIdMismatch, flags: [T]) { $0.credentialId = [] },
            AttestationCase(
                "authdata::no-credential-data", "AT set but no attested credential data", .malformedAuthenticatorData, flags: [T]
            ) { $0.omitCredentialData = true },
            AttestationCase("authdata::at-clear", "AT flag clear and no credential data", .malformedAuthenticatorData, flags: [T]) {
                $0.flags = 0x00
                $0.omitCredentialData = true
            },
            AttestationCase("authdata::id-length-too-long", "credentialIdLength beyond the data", .malformedAuthenticatorData, flags: [T]) {
                $0.credentialIdLength = 4000
            },
            AttestationCase(
                "authdata::ed-without-extensions", "ED set but nothing follows the key", .malformedAuthenticatorData, flags: [T]
            ) { $0.flags = 0xC0 },
            AttestationCase(
                "authdata::trailing-garbage", "a zero byte after the COSE key (not a map)", .malformedAuthenticatorData, flags: [T]
            ) { $0.trailing = [0] },
            AttestationCase("authdata::trailing-two-maps", "two maps after the COSE key", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = [0xA0, 0xA0]
            },
            AttestationCase("authdata::trailing-truncated-map", "trailing map cut short", .malformedAuthenticatorData, flags: [T]) {
                $0.trailing = [0xA1, 0x61, 0x6B]
            },
        ]
        let e = coseEntries
        let keyCases: [(String, String, [(CBORValue, CBORValue)])] = [
            ("kty-okp", "kty 1 (OKP)", [(.int(1), .int(1))] + e.dropFirst()),
            ("alg-eddsa", "alg -8 (EdDSA)", [e[0], (.int(3), .int(-8))] + e.dropFirst(2)),
            ("crv-p384", "crv 2 (P-384)", Array(e.prefix(2)) + [(.int(-1), .int(2))] + e.dropFirst(3)),
            (
                "x-31-bytes", "x of 31 bytes",
                Array(e.prefix(3)) + [(.int(-2), .bytes(Array(e[3].1.bytesValue?.dropFirst() ?? [])))] + [e[4]]
            ),
            ("y-compressed", "y as a boolean (compressed point)", Array(e.prefix(4)) + [(.int(-3), .bool(true))]),
            ("y-missing", "y missing", Array(e.prefix(4))),
            ("extra-label", "an extra label -4", e + [(.int(-4), .bytes([1]))]),
            ("kty-missing", "kty missing", Array(e.dropFirst())),
            ("off-curve", "point not on the curve", Array(e.prefix(4)) + [(.int(-3), .bytes([UInt8](repeating: 1, count: 32)))]),
            ("alg-text", "alg as text", [e[0], (.int(3), .text("ES256"))] + e.dropFirst(2)),
        ]
        for (name, comment, entries) in keyCases {
            list.append(
                AttestationCase("cose::\(name)", "COSE key: \(comment)", .malformedCredentialPublicKey, flags: [T]) {
                    $0.coseKey = self.coseKey(entries)
                })
        }
        list += [
            AttestationCase("cose::not-a-map", "COSE key is an array", .malformedCredentialPublicKey, flags: [T]) { $0.coseKey = [0x80] },
            AttestationCase("cose::unsorted", "COSE key labels in non-canonical order", .malformedCredentialPublicKey, flags: [T]) {
                let entries = self.coseEntries
                var out: [UInt8] = [0xA5]
                for (k, v) in entries.reversed() { out += CBOREncoder.canonical(k) + CBOREncoder.canonical(v) }
                $0.coseKey = out
            },
            AttestationCase("cose::truncated", "COSE key cut short", .malformedCredentialPublicKey, flags: [T]) {
                $0.coseKey = Array(self.coseKey(self.coseEntries).dropLast(5))
            },
        ]
        return list
    }
}
