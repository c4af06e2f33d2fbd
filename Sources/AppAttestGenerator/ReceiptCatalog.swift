import AppAttest
import VectorContract
import Crypto
import Foundation
import TrustSuiteSupport
import TestPKI

/// One receipt vector: the receipt's spec plus the verifier's inputs.
struct ReceiptCase {
    var id: String
    var comment: String
    var error: AppAttestError.Code?
    var flags: [String] = []
    var spec: ReceiptSpec
    var validationTime: Date
    var appId: String? = nil
    var publicKey: [UInt8]? = nil
    var maxAge: Int? = nil
    /// The verifier's clock skew (`clockSkew`, seconds); absent: the default 60 s.
    var clockSkew: Int? = nil
    var anchorsPem: [String]? = nil
    var bytes: (([UInt8]) -> [UInt8])? = nil
}

extension AppAttestVectors {
    /// The credential certificate named in field 3 of the receipt vectors.
    var credentialCertificate: [UInt8] {
        (try? Self.baselineLeaf(pki: pki, attestation: attestation, key: credentialKey)) ?? []
    }

    func receiptCases() -> [ReceiptCase] {
        let now = pki.now
        let T = "Tampered"
        var base = ReceiptSpec(pki: pki)
        base.attestedCertificate = credentialCertificate
        let key = Array(credentialKey.publicKey.x963Representation)
        func make(_ id: String, _ comment: String, _ error: AppAttestError.Code?, flags: [String] = [], _ edit: (inout ReceiptCase) -> Void)
            -> ReceiptCase
        {
            var c = ReceiptCase(id: id, comment: comment, error: error, flags: flags, spec: base, validationTime: now)
            edit(&c)
            return c
        }
        var receiptType = base
        receiptType.kind = "RECEIPT"
        receiptType.riskMetric = 3
        receiptType.notBefore = now.addingTimeInterval(-3600)

        let list: [ReceiptCase] = [
            make("baseline::attest-ber", "ATTEST receipt in Apple's BER form (indefinite lengths, 1000-byte chunks)", nil) { _ in },
            make("baseline::attest-der", "ATTEST receipt in DER", nil) { $0.spec.ber = false },
            make("baseline::receipt-type", "RECEIPT with risk metric 3 and a not-before (19) an hour before the validation time", nil) {
                $0.spec = receiptType
            },
            make("baseline::risk-metric-0", "RECEIPT with risk metric 0", nil) {
                $0.spec = receiptType
                $0.spec.riskMetric = 0
            },
            make("baseline::app-id-checked", "App ID given and equal", nil) { $0.appId = AppAttestVectors.appId },
            make("baseline::key-checked", "stored public key given and equal (X9.63)", nil) { $0.publicKey = key },
            make("baseline::key-checked-spki", "stored public key given as SPKI", nil) {
                $0.publicKey = Array(self.credentialKey.publicKey.derRepresentation)
            },
            make("baseline::fresh", "created 10 s before, maxAge 300 s", nil) { $0.maxAge = 300 },
            make("baseline::max-age-boundary", "created exactly maxAge seconds before", nil) {
                $0.maxAge = 300
                $0.spec.creation = now.addingTimeInterval(-300)
            },
            make("baseline::signed-attributes", "with signed attributes (content type, message digest)", nil) {
                $0.spec.signedAttributes = true
            },
            make("baseline::digest-without-null", "SHA-256 AlgorithmIdentifier without the NULL parameter", nil) {
                $0.spec.digestWithNull = false
            },
            make("baseline::der-ordered-certificates", "certificate SET in DER order", nil) { $0.spec.certificates = .derOrder },
            make("baseline::unknown-field", "an unknown field type 99 is kept and ignored", nil) {
                $0.spec.extraFields = [(99, 1, [1, 2, 3])]
            },
            make("baseline::no-expiration", "no expiration field (21)", nil) { $0.spec.expiration = nil },
            make("baseline::sandbox", "environment field sandbox", nil) { $0.spec.environment = "sandbox" },
            make("baseline::large-payload", "a 5000-byte token: the payload spans six chunks", nil) {
                $0.spec.token = [UInt8](repeating: 0x41, count: 5000)
            },
            make("baseline::creation-without-millis", "creation time without fractional seconds", nil) {
                $0.spec.creationText = RFC3339.format(now.addingTimeInterval(-10))
            },
            make("signature::payload-tampered", "payload changed after signing", .receiptSignatureInvalid, flags: [T]) {
                $0.spec.tamperPayload = true
            },
            make("signature::payload-tampered-der", "payload changed after signing (DER)", .receiptSignatureInvalid, flags: [T]) {
                $0.spec.tamperPayload = true
                $0.spec.ber = false
            },
            make("signature::other-key", "signed by a key other than the signer certificate's", .receiptSignatureInvalid, flags: [T]) {
                $0.spec.otherSignerKey = true
            },
            make(
                "signature::wrong-message-digest", "signed attributes whose messageDigest does not match", .receiptSignatureInvalid,
                flags: [T]
            ) {
                $0.spec.signedAttributes = true
                $0.spec.wrongMessageDigest = true
            },
            make("signature::signer-not-present", "no certificate matches the signer's serial number", .receiptSignatureInvalid, flags: [T])
            { $0.spec.signerSerialOffset = 1 },
            make(
                "signature::signer-certificate-missing", "the signer certificate is not in the receipt", .receiptSignatureInvalid,
                flags: [T]
            ) { $0.spec.certificates = .withoutSigner },
            make("chain::intermediate-missing", "only the signer certificate is sent", .receiptChainInvalid, flags: [T]) {
                $0.spec.certificates = .signerOnly
            },
            make("chain::apple-anchor", "default anchor Apple Root CA - G3: the test chain does not reach it", .receiptChainInvalid) {
                $0.anchorsPem = []
            },
            make("chain::attestation-anchor", "anchor is another root (the attestation test root)", .receiptChainInvalid) {
                $0.anchorsPem = [GeneratorPKI.pem(self.attestation.root)]
            },
            make(
                "chain::signer-expired", "validation time one second after the signer's notAfter", .receiptChainInvalid,
                flags: ["Expired", "ClockTolerance"]
            ) {
                $0.validationTime = self.receipts.signerNotAfter.addingTimeInterval(1)
                $0.spec.expiration = nil
            },
            make(
                "chain::signer-not-yet-valid", "validation time one second before the signer's notBefore", .receiptChainInvalid,
                flags: ["NotYetValid", "ClockTolerance"]
            ) {
                $0.validationTime = self.receipts.signerNotBefore.addingTimeInterval(-1)
            },
            // docs/models/app-attest.md (Receipt): the signer is pinned, not just chained.
            make(
                "signer::unmarked-leaf",
                "signed by a leaf of the right intermediate without the receipt-signing marker (a developer certificate)",
                .receiptSignerInvalid, flags: [T]
            ) { $0.spec.signer = .unmarked },
            make("signer::intermediate-key", "signed by the intermediate's own key and certificate", .receiptSignerInvalid, flags: [T]) {
                $0.spec.signer = .intermediate
            },
            make("signer::root-key", "signed by the root's own key and certificate", .receiptSignerInvalid, flags: [T]) {
                $0.spec.signer = .root
            },
            make(
                "signer::wrong-usage", "the signer's name and marker, but a key usage of keyCertSign without digitalSignature",
                .receiptSignerInvalid, flags: [T]
            ) { $0.spec.signer = .wrongUsage },
            // The store names the expected intermediate beside the root: a
            // marked signer under any other CA is refused (round 3, audit).
            make("signer::pinned-intermediate", "trust store of the root and the expected intermediate: the standard signer verifies", nil)
            {
                $0.anchorsPem = [GeneratorPKI.pem(self.receipts.root), GeneratorPKI.pem(self.receipts.intermediate)]
            },
            make(
                "signer::sibling-ca",
                "a marked signer issued by a sibling CA under the same root; the store names the expected intermediate",
                .receiptSignerInvalid, flags: [T]
            ) {
                $0.spec.signer = .siblingCA
                $0.anchorsPem = [GeneratorPKI.pem(self.receipts.root), GeneratorPKI.pem(self.receipts.intermediate)]
            },
            make(
                "signer::same-name-ca", "a marked signer issued by a second CA with the expected intermediate's name and another key",
                .receiptSignerInvalid, flags: [T]
            ) {
                $0.spec.signer = .sameNameCA
                $0.anchorsPem = [GeneratorPKI.pem(self.receipts.root), GeneratorPKI.pem(self.receipts.intermediate)]
            },
            // docs/models/app-attest.md (Receipt, round 3): certificates are bounded before any path is built.
            make(
                "bounds::cross-signed-4", "four CAs that all sign each other (13 CA certificates): more than 4 certificates in the CMS set",
                .malformedReceipt, flags: [T, "LimitPolicy"]
            ) { $0.spec.signer = .crossSigned(count: 4) },
            make(
                "bounds::five-certificates", "the standard chain plus two more copies of the intermediate: 5 certificates",
                .malformedReceipt, flags: [T, "LimitPolicy"]
            ) { $0.spec.extraCertificates = 2 },
            make(
                "bounds::four-certificates", "the standard chain plus one more copy of the intermediate: 4 certificates, within the bound",
                nil
            ) {
                $0.spec.extraCertificates = 1
            },
            make(
                "chain::ca-without-key-cert-sign",
                "marked signer issued by an intermediate whose key usage lacks keyCertSign (RFC 5280 4.2.1.3)",
                .receiptChainInvalid, flags: [T]
            ) { $0.spec.signer = .caWithoutKeyCertSign },
            // docs/models/app-attest.md (Receipt): time is checked on both sides; signed attributes name id-data.
            make("time::created-after-validation", "creation time (12) an hour after the validation time", .receiptNotYetValid, flags: [T])
            {
                $0.spec.creation = now.addingTimeInterval(3600)
            },
            // Round 3: the creation time may lie up to the clock skew (default 60 s) after the
            // validation time; field 19 is the earliest refresh time and never decides.
            make(
                "time::created-1s-after-validation", "creation time (12) one second after the validation time: within the 60 s clock skew",
                nil
            ) {
                $0.spec.creation = now.addingTimeInterval(1)
            },
            make("time::created-59s-after-validation", "creation time (12) 59 s after the validation time: within the 60 s clock skew", nil)
            {
                $0.spec.creation = now.addingTimeInterval(59)
            },
            make("time::created-60s-after-validation", "creation time (12) exactly 60 s after the validation time: the skew's edge", nil) {
                $0.spec.creation = now.addingTimeInterval(60)
            },
            make(
                "time::created-61s-after-validation", "creation time (12) 61 s after the validation time: beyond the 60 s clock skew",
                .receiptNotYetValid, flags: ["ClockTolerance"]
            ) { $0.spec.creation = now.addingTimeInterval(61) },
            make("time::created-at-validation", "creation time (12) equal to the validation time", nil) { $0.spec.creation = now },
            make("time::skew-0-created-1s-after", "clock skew 0: creation time one second after the validation time", .receiptNotYetValid) {
                $0.clockSkew = 0
                $0.spec.creation = now.addingTimeInterval(1)
            },
            make("time::skew-0-created-at-validation", "clock skew 0: creation time equal to the validation time", nil) {
                $0.clockSkew = 0
                $0.spec.creation = now
            },
            make("time::skew-120-created-61s-after", "clock skew 120 s: creation time 61 s after the validation time", nil) {
                $0.clockSkew = 120
                $0.spec.creation = now.addingTimeInterval(61)
            },
            make(
                "time::skew-120-created-121s-after", "clock skew 120 s: creation time 121 s after the validation time", .receiptNotYetValid
            ) {
                $0.clockSkew = 120
                $0.spec.creation = now.addingTimeInterval(121)
            },
            make(
                "time::before-not-before",
                "RECEIPT whose field 19 (earliest refresh) is a day after the validation time, as in every real refreshed receipt: field 19 never decides",
                nil
            ) {
                $0.spec = receiptType
                $0.spec.notBefore = now.addingTimeInterval(86_400)
            },
            make(
                "time::1s-before-not-before",
                "RECEIPT whose field 19 (earliest refresh) is one second after the validation time: field 19 never decides", nil
            ) {
                $0.spec = receiptType
                $0.spec.notBefore = now.addingTimeInterval(1)
            },
            make("time::at-not-before", "RECEIPT whose field 19 (earliest refresh) is the validation time", nil) {
                $0.spec = receiptType
                $0.spec.notBefore = now
            },
            make(
                "time::refresh-a-day-after-creation",
                "RECEIPT created 10 s before the validation time whose field 19 is creation + 1 day (real data's shape)", nil
            ) {
                $0.spec = receiptType
                $0.spec.notBefore = $0.spec.creation.addingTimeInterval(86_400)
            },
            make("time::a-day-after-expiration", "validation time a day after field 21", .receiptExpired) {
                $0.spec.expiration = now.addingTimeInterval(-86_400)
                $0.spec.creation = now.addingTimeInterval(-90 * 86_400)
            },
            make(
                "cms::content-type-attribute-missing", "signed attributes without the content-type attribute", .malformedReceipt, flags: [T]
            ) {
                $0.spec.signedAttributes = true
                $0.spec.contentTypeAttribute = nil
            },
            make(
                "cms::content-type-attribute-not-data", "content-type attribute names signedData, not id-data", .malformedReceipt,
                flags: [T]
            ) {
                $0.spec.signedAttributes = true
                $0.spec.contentTypeAttribute = [1, 2, 840, 113549, 1, 7, 2]
            },
            make("app-id::other", "App ID expected for another app", .receiptAppIdMismatch) {
                $0.appId = "ABCDE12345.org.trustsuite.other"
            },
            make("app-id::receipt-for-other-app", "receipt names another app", .receiptAppIdMismatch, flags: [T]) {
                $0.spec.appId = "ABCDE12345.org.attacker.app"
                $0.appId = AppAttestVectors.appId
            },
            make("key::other", "stored key differs from field 3's certificate key", .receiptKeyMismatch) {
                $0.publicKey = Array(self.pki.p256("other-signer").publicKey.x963Representation)
            },
            make("key::no-certificate", "field 3 holds no certificate", .receiptKeyMismatch, flags: [T]) {
                $0.spec.attestedCertificate = [1, 2, 3]
                $0.publicKey = key
            },
            make("expiry::after-expiration", "validation time one second after field 21", .receiptExpired, flags: ["ClockTolerance"]) {
                $0.spec.expiration = now.addingTimeInterval(-1)
                $0.spec.creation = now.addingTimeInterval(-90 * 86_400)
            },
            make("freshness::too-old", "created 301 s before, maxAge 300 s", .receiptTooOld) {
                $0.maxAge = 300
                $0.spec.creation = now.addingTimeInterval(-301)
            },
            make("freshness::a-day-old", "created a day before, maxAge 300 s", .receiptTooOld) {
                $0.maxAge = 300
                $0.spec.creation = now.addingTimeInterval(-86_400)
            },
            make("parse::not-cms", "random bytes", .malformedReceipt, flags: [T]) { $0.bytes = { _ in [0x01, 0x02, 0x03] } },
            make("parse::empty", "empty input", .malformedReceipt, flags: [T]) { $0.bytes = { _ in [] } },
            make("parse::truncated", "receipt cut in half", .malformedReceipt, flags: [T]) {
                $0.bytes = { Array($0.prefix($0.count / 2)) }
            },
            make("parse::truncated-der", "DER receipt missing its last byte", .malformedReceipt, flags: [T]) {
                $0.spec.ber = false
                $0.bytes = { Array($0.dropLast()) }
            },
            make("parse::trailing-bytes", "bytes after the ContentInfo", .malformedReceipt, flags: [T]) {
                $0.spec.ber = false
                $0.bytes = { $0 + [0x00, 0x00, 0x05] }
            },
            make("parse::not-signed-data", "content type is id-data", .malformedReceipt, flags: [T]) {
                $0.spec.contentTypeOID = [1, 2, 840, 113549, 1, 7, 1]
            },
            make("parse::payload-not-set", "payload is an INTEGER", .malformedReceipt, flags: [T]) {
                $0.spec.payloadOverride = [0x02, 0x01, 0x05]
            },
            make("parse::field-two-parts", "a payload field without its value", .malformedReceipt, flags: [T]) {
                $0.spec.payloadOverride = TLV.set([TLV.sequence(TLV.integer(2), TLV.integer(1))])
            },
            make("parse::sha1-digest", "digest algorithm SHA-1", .malformedReceipt, flags: [T]) {
                $0.spec.digestOID = [1, 3, 14, 3, 2, 26]
            },
            make("parse::ecdsa-sha384", "signature algorithm ecdsa-with-SHA384", .malformedReceipt, flags: [T]) {
                $0.spec.signatureOID = [1, 2, 840, 10045, 4, 3, 3]
            },
            make("parse::two-signers", "two SignerInfos", .malformedReceipt, flags: [T]) { $0.spec.twoSigners = true },
            make("parse::creation-missing", "no creation time (12)", .malformedReceipt, flags: [T]) { $0.spec.omit = [12] },
            make("parse::type-missing", "no type (6)", .malformedReceipt, flags: [T]) { $0.spec.omit = [6] },
            make("parse::app-id-missing", "no App ID (2)", .malformedReceipt, flags: [T]) { $0.spec.omit = [2] },
            make("parse::type-unknown", "type field is AUDIT", .malformedReceipt, flags: [T]) { $0.spec.kind = "AUDIT" },
            make("parse::creation-not-rfc3339", "creation time not RFC 3339", .malformedReceipt, flags: [T]) {
                $0.spec.creationText = "yesterday"
            },
        ]
        return list
    }

    func buildReceipt(_ c: ReceiptCase) throws -> (input: [String: JSONValue], output: [String: JSONValue]) {
        var bytes = try ReceiptBuilder(pki: receipts).build(c.spec).bytes
        if let mutate = c.bytes { bytes = mutate(bytes) }
        var input: [String: JSONValue] = [
            "receipt": .b64(bytes), "validationTime": .string(RFC3339.format(c.validationTime)),
        ]
        let anchors = c.anchorsPem ?? [GeneratorPKI.pem(receipts.root)]
        if !anchors.isEmpty { input["trustAnchorsPem"] = .array(anchors.map(JSONValue.string)) }
        if let appId = c.appId { input["appId"] = .string(appId) }
        if let key = c.publicKey { input["publicKey"] = .b64(key) }
        if let maxAge = c.maxAge { input["maxAge"] = .int(Int64(maxAge)) }
        if let clockSkew = c.clockSkew { input["clockSkew"] = .int(Int64(clockSkew)) }
        let output: [String: JSONValue] = [
            "type": .string(c.spec.kind), "appId": .string(c.spec.appId),
            "creationTime": .string(c.spec.creationText ?? RFC3339.format(c.spec.creation, fractional: true)),
            "riskMetric": c.spec.riskMetric.map { .int(Int64($0)) } ?? .null,
        ]
        return (input, output)
    }
}
