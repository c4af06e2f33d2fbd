import AppAttest
import Crypto
import Foundation
import SwiftASN1
import X509

/// Everything one receipt is built from.
package struct ReceiptSpec {
    package enum Certificates { case apple, signerOnly, withoutSigner, derOrder }

    package var kind = "ATTEST"
    package var appId = TestIdentity.appId
    package var attestedCertificate: [UInt8] = []
    package var clientHash = TestIdentity.clientDataHash
    package var token: [UInt8] = Array("trustsuite-receipt-token".utf8)
    package var environment = "production"
    package var creation: Date
    package var creationText: String? = nil
    package var expiration: Date?
    package var riskMetric: Int? = nil
    package var notBefore: Date? = nil
    package var extraFields: [(type: Int, version: Int, value: [UInt8])] = []
    package var omit: Set<Int> = []
    /// Apple's form: indefinite lengths and the payload in 1000-byte chunks.
    package var ber = true
    package var signedAttributes = false
    package var wrongMessageDigest = false
    package var digestWithNull = true
    package var certificates: Certificates = .apple
    package var otherSignerKey = false
    package var tamperPayload = false
    package var signerSerialOffset = 0
    package var digestOID: [UInt] = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    package var signatureOID: [UInt] = [1, 2, 840, 10045, 4, 3, 2]
    package var payloadOverride: [UInt8]? = nil
    package var contentTypeOID: [UInt] = [1, 2, 840, 113549, 1, 7, 2]
    package var twoSigners = false
    /// Copies of the intermediate appended to the certificate set (the bound's vectors).
    package var extraCertificates = 0
    /// Keep only the first N certificates of the signer's set (the bound's tests).
    package var keepCertificates: Int? = nil
    /// Who signs (the pinning vectors).
    package var signer: ReceiptPKI.SignerChoice = .standard
    /// The content-type signed attribute: id-data, absent, or another type.
    package var contentTypeAttribute: [UInt]? = [1, 2, 840, 113549, 1, 7, 1]

    package init(pki: GeneratorPKI) {
        creation = pki.now.addingTimeInterval(-10)
        expiration = pki.now.addingTimeInterval(90 * 86_400)
    }
}

/// Builds CMS SignedData receipts by hand (DER or Apple's BER shape).
package struct ReceiptBuilder {
    package let pki: ReceiptPKI

    package init(pki: ReceiptPKI) { self.pki = pki }

    package func payload(_ spec: ReceiptSpec) -> [UInt8] {
        if let override = spec.payloadOverride { return override }
        typealias F = Receipt.FieldType
        var fields: [(Int, Int, [UInt8])] = [
            (F.appId.rawValue, 1, Array(spec.appId.utf8)), (F.attestedCertificate.rawValue, 1, spec.attestedCertificate),
            (F.clientHash.rawValue, 1, spec.clientHash), (F.token.rawValue, 1, spec.token),
            (F.kind.rawValue, 1, Array(spec.kind.utf8)), (F.environment.rawValue, 1, Array(spec.environment.utf8)),
            (F.creationTime.rawValue, 1, Array((spec.creationText ?? RFC3339.format(spec.creation, fractional: true)).utf8)),
        ]
        if let risk = spec.riskMetric { fields.append((F.riskMetric.rawValue, 1, Array(String(risk).utf8))) }
        if let notBefore = spec.notBefore {
            fields.append((F.earliestRefresh.rawValue, 1, Array(RFC3339.format(notBefore, fractional: true).utf8)))
        }
        if let expiration = spec.expiration {
            fields.append((F.expirationTime.rawValue, 1, Array(RFC3339.format(expiration, fractional: true).utf8)))
        }
        fields += spec.extraFields.map { ($0.type, $0.version, $0.value) }
        // Not in DER SET OF order, as Apple's are not: the App ID goes last.
        let encoded = fields.filter { !spec.omit.contains($0.0) }.map {
            TLV.sequence(TLV.integer($0.0), TLV.integer($0.1), TLV.octets($0.2))
        }
        return TLV.set(Array(encoded.dropFirst()) + Array(encoded.prefix(1)))
    }

    package func algorithm(_ oid: [UInt], null: Bool) -> [UInt8] {
        null ? TLV.sequence(TLV.oid(oid), [0x05, 0x00]) : TLV.sequence(TLV.oid(oid))
    }

    package func build(_ spec: ReceiptSpec) throws -> (bytes: [UInt8], payload: [UInt8]) {
        let payload = payload(spec)
        var attributes: [UInt8]? = nil
        var signed = payload
        if spec.signedAttributes {
            var digest = Array(SHA256.hash(data: payload))
            if spec.wrongMessageDigest { digest[0] ^= 1 }
            let contentType =
                spec.contentTypeAttribute.map { TLV.sequence(TLV.oid([1, 2, 840, 113549, 1, 9, 3]), TLV.set([TLV.oid($0)])) } ?? []
            let content = contentType + TLV.sequence(TLV.oid([1, 2, 840, 113549, 1, 9, 4]), TLV.set([TLV.octets(digest)]))
            attributes = TLV.node(0xA0, content)
            signed = TLV.node(0x31, content)
        }
        let signer = try pki.signer(spec.signer)
        let key: ReceiptSigningKey = spec.otherSignerKey ? .p256(P256.Signing.PrivateKey()) : signer.key
        let signature = try key.sign(signed)
        var sentPayload = payload
        if spec.tamperPayload, let last = sentPayload.indices.last { sentPayload[last] ^= 0x01 }

        var serializer = DER.Serializer()
        try serializer.serialize(signer.certificate.issuer)
        let issuer = serializer.serializedBytes
        var serial = Array(signer.certificate.serialNumber.bytes)
        if spec.signerSerialOffset != 0, let last = serial.indices.last { serial[last] &+= UInt8(spec.signerSerialOffset) }
        var signerInfo =
            TLV.integer(1) + TLV.sequence(issuer, TLV.node(0x02, serial))
            + algorithm(spec.digestOID, null: spec.digestWithNull)
        if let attributes { signerInfo += attributes }
        signerInfo += algorithm(spec.signatureOID, null: false) + TLV.octets(signature)
        let signerInfoNode = TLV.node(0x30, signerInfo)
        let signerInfos = TLV.set(spec.twoSigners ? [signerInfoNode, signerInfoNode] : [signerInfoNode])

        let certificateList: [[UInt8]]
        switch spec.certificates {
        case .apple: certificateList = signer.certificates
        case .signerOnly: certificateList = Array(signer.certificates.prefix(1))
        case .withoutSigner: certificateList = Array(signer.certificates.dropFirst())
        case .derOrder: certificateList = signer.certificates.sorted { $0.lexicographicallyPrecedes($1) }
        }
        let extra = Array(repeating: pki.intermediate, count: spec.extraCertificates)
        let sent = Array((certificateList + extra).prefix(spec.keepCertificates ?? Int.max))
        let certificates = TLV.node(0xA0, sent.flatMap { $0 })
        let digestAlgorithms = TLV.set([algorithm(spec.digestOID, null: spec.digestWithNull)])
        let dataOID = TLV.oid([1, 2, 840, 113549, 1, 7, 1])
        if spec.ber {
            let encap = TLV.indefinite(0x30, [dataOID, TLV.indefinite(0xA0, [TLV.chunkedOctets(sentPayload, size: 1000)])])
            let signedData = TLV.indefinite(0x30, [TLV.integer(1), digestAlgorithms, encap, certificates, signerInfos])
            return (TLV.indefinite(0x30, [TLV.oid(spec.contentTypeOID), TLV.indefinite(0xA0, [signedData])]), payload)
        }
        let encap = TLV.sequence(dataOID, TLV.explicit(0, TLV.octets(sentPayload)))
        let signedData = TLV.sequence(TLV.integer(1), digestAlgorithms, encap, certificates, signerInfos)
        return (TLV.sequence(TLV.oid(spec.contentTypeOID), TLV.explicit(0, signedData)), payload)
    }
}
