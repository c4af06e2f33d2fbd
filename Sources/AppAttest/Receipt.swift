import Foundation
import SwiftASN1
import X509

/// An App Attest receipt: CMS SignedData in BER (indefinite lengths, the
/// content split in chunks), parsed with swift-asn1 into typed fields. The
/// payload is `SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET
/// STRING }`, not in DER order; unknown types are kept.
public struct Receipt: Sendable {
    /// Largest receipt accepted (real ones are about 5 KiB).
    public static let maxLength = 64 * 1024
    /// Most certificates accepted in the CMS `certificates` set (real
    /// receipts carry 3: signer, intermediate, root). Path building over
    /// certificate authorities that all sign each other is exponential in
    /// their number (a 22.8 KB receipt took 507 s); the receipt is not covered
    /// by the attestation's nonce, so anyone can attach such a set.
    public static let maxCertificates = 4
    /// Largest payload field list accepted.
    static let maxFields = 256
    /// Nesting bound when joining a constructed OCTET STRING's chunks.
    static let maxChunkDepth = 8

    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    static let sha256OID: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    static let ecdsaWithSHA256OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 4]
    static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 3]

    /// One payload field.
    public struct Field: Sendable, Hashable {
        public let type: Int
        public let version: Int
        public let value: [UInt8]
    }

    /// The payload field numbers Apple's receipts use (the numbers in one place).
    public enum FieldType: Int, Sendable, Hashable, CaseIterable {
        case appId = 2
        case attestedCertificate = 3
        case clientHash = 4
        case token = 5
        case kind = 6
        case environment = 7
        case creationTime = 12
        case riskMetric = 17
        /// The earliest time a new receipt may be requested (creation + 1 day
        /// in real data); never a validity start.
        case earliestRefresh = 19
        case expirationTime = 21

        /// Shown by `trustsuite inspect`.
        public var title: String {
            switch self {
            case .appId: "App ID"
            case .attestedCertificate: "attested credential certificate"
            case .clientHash: "client hash"
            case .token: "token"
            case .kind: "type"
            case .environment: "environment"
            case .creationTime: "creation time"
            case .riskMetric: "risk metric"
            case .earliestRefresh: "earliest refresh (not before)"
            case .expirationTime: "expiration time"
            }
        }
    }

    /// Receipt kinds (field 6).
    public enum Kind: String, Sendable, Hashable, Codable {
        case attest = "ATTEST"
        case receipt = "RECEIPT"
    }

    /// The exact bytes the signature covers when there are no signed
    /// attributes: the joined content octets.
    public let payload: [UInt8]
    public let fields: [Field]
    /// Certificates carried by the receipt (DER, in the order sent).
    public let certificates: [[UInt8]]
    /// The signer's issuer (DER) and serial number.
    package let signerIssuer: DistinguishedName
    package let signerSerial: Certificate.SerialNumber
    /// The signed attributes re-tagged as SET (the bytes signed when present).
    public let signedAttributes: [UInt8]?
    let messageDigest: [UInt8]?
    public let signature: [UInt8]

    public init(bytes: [UInt8]) throws(AppAttestError) {
        guard bytes.count <= Self.maxLength else { throw Self.malformed("receipt of \(bytes.count) bytes exceeds \(Self.maxLength)") }
        do {
            let parsed = try Self.parse(bytes)
            self = parsed
        } catch let error as AppAttestError {
            throw error
        } catch {
            throw Self.malformed("CMS structure: \(error)")
        }
    }

    private init(
        payload: [UInt8], fields: [Field], certificates: [[UInt8]], signerIssuer: DistinguishedName,
        signerSerial: Certificate.SerialNumber, signedAttributes: [UInt8]?, messageDigest: [UInt8]?, signature: [UInt8]
    ) {
        self.payload = payload
        self.fields = fields
        self.certificates = certificates
        self.signerIssuer = signerIssuer
        self.signerSerial = signerSerial
        self.signedAttributes = signedAttributes
        self.messageDigest = messageDigest
        self.signature = signature
    }

    static func malformed(_ reason: String) -> AppAttestError { AppAttestError(.malformedReceipt, reason) }

    static func parse(_ bytes: [UInt8]) throws -> Receipt {
        let root = try BER.parse(bytes)
        var top = try children(root, .sequence, "ContentInfo")
        guard let typeNode = top.next(), try ASN1ObjectIdentifier(berEncoded: typeNode) == signedDataOID else {
            throw malformed("content type is not signedData")
        }
        guard let explicit = top.next(), explicit.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            case .constructed(let wrapped) = explicit.content, top.next() == nil
        else {
            throw malformed("ContentInfo content is not [0] EXPLICIT SignedData")
        }
        var wrappedNodes = wrapped.makeIterator()
        guard let signedDataNode = wrappedNodes.next(), wrappedNodes.next() == nil else { throw malformed("empty [0]") }
        var signedData = try children(signedDataNode, .sequence, "SignedData")
        guard let versionNode = signedData.next(), (try? Int(berEncoded: versionNode)) != nil else {
            throw malformed("SignedData version missing")
        }
        guard let digestAlgorithms = signedData.next(), digestAlgorithms.identifier == .set else {
            throw malformed("digestAlgorithms SET missing")
        }
        // One signer with SHA-256: the set lists SHA-256 alone (RFC 5652
        // §5.1). The signature does not cover this set, so anything else in
        // it is refused rather than skipped (found by FuzzReceiptVerify:
        // OpenSSL refused a malformed parameter here that was read past).
        var digestList = try children(digestAlgorithms, .set, "digestAlgorithms")
        guard let onlyDigest = digestList.next(), digestList.next() == nil else {
            throw malformed("digestAlgorithms must list SHA-256 alone")
        }
        try expectAlgorithm(onlyDigest, sha256OID, "digestAlgorithms must list SHA-256 alone")
        guard let encap = signedData.next() else { throw malformed("encapContentInfo missing") }
        let payload = try encapsulatedContent(encap)

        var certificates: [[UInt8]] = []
        var next = signedData.next()
        if let node = next, node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            guard case .constructed(let certs) = node.content else { throw malformed("certificates not constructed") }
            for cert in certs {
                guard certificates.count < maxCertificates else {
                    throw malformed("more than \(maxCertificates) certificates in the CMS set")
                }
                certificates.append(Array(cert.encodedBytes))
            }
            next = signedData.next()
        }
        if let node = next, node.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific) {
            next = signedData.next()  // CRLs: not used by App Attest, skipped.
        }
        guard let signerInfos = next, signerInfos.identifier == .set, signedData.next() == nil,
            case .constructed(let infos) = signerInfos.content
        else {
            throw malformed("signerInfos SET missing")
        }
        var infoIterator = infos.makeIterator()
        guard let signerInfo = infoIterator.next(), infoIterator.next() == nil else {
            throw malformed("exactly one SignerInfo expected")
        }
        var info = try children(signerInfo, .sequence, "SignerInfo")
        guard let infoVersion = info.next(), (try? Int(berEncoded: infoVersion)) != nil else { throw malformed("SignerInfo version") }
        guard let sid = info.next() else { throw malformed("SignerInfo sid missing") }
        var sidNodes = try children(sid, .sequence, "IssuerAndSerialNumber")
        guard let issuerNode = sidNodes.next(), let serialNode = sidNodes.next(), sidNodes.next() == nil else {
            throw malformed("IssuerAndSerialNumber must hold issuer and serial")
        }
        let issuer = try DistinguishedName(derEncoded: issuerNode)
        guard case .primitive(let serialBytes) = serialNode.content, serialNode.identifier == .integer else {
            throw malformed("serial number is not an INTEGER")
        }
        let serial = Certificate.SerialNumber(bytes: serialBytes)
        guard let digestAlgorithm = info.next() else { throw malformed("digestAlgorithm missing") }
        try expectAlgorithm(digestAlgorithm, sha256OID, "digest algorithm must be SHA-256")
        var signedAttributes: [UInt8]? = nil
        var messageDigest: [UInt8]? = nil
        var node = info.next()
        if let attributes = node, attributes.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            var retagged = Array(attributes.encodedBytes)
            retagged[0] = 0x31
            signedAttributes = retagged
            messageDigest = try findMessageDigest(attributes)
            node = info.next()
        }
        guard let signatureAlgorithm = node else { throw malformed("signatureAlgorithm missing") }
        try expectAlgorithm(signatureAlgorithm, ecdsaWithSHA256OID, "signature algorithm must be ecdsa-with-SHA256")
        guard let signatureNode = info.next() else { throw malformed("signature missing") }
        let signature = try octets(signatureNode, depth: 0)
        let fields = try parsePayload(payload)
        return Receipt(
            payload: payload, fields: fields, certificates: certificates, signerIssuer: issuer,
            signerSerial: serial, signedAttributes: signedAttributes, messageDigest: messageDigest,
            signature: signature)
    }

    static func children(_ node: ASN1Node, _ identifier: ASN1Identifier, _ name: String) throws -> ASN1NodeCollection.Iterator {
        guard node.identifier == identifier, case .constructed(let nodes) = node.content else {
            throw malformed("\(name) is not a \(identifier)")
        }
        return nodes.makeIterator()
    }

    /// `SEQUENCE { eContentType data, [0] EXPLICIT OCTET STRING }`, chunks joined.
    static func encapsulatedContent(_ node: ASN1Node) throws -> [UInt8] {
        var nodes = try children(node, .sequence, "EncapsulatedContentInfo")
        guard let type = nodes.next(), try ASN1ObjectIdentifier(berEncoded: type) == dataOID else {
            throw malformed("encapsulated content type is not id-data")
        }
        guard let explicit = nodes.next(), explicit.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            case .constructed(let inner) = explicit.content, nodes.next() == nil
        else {
            throw malformed("receipt payload missing")
        }
        var innerNodes = inner.makeIterator()
        guard let octetNode = innerNodes.next(), innerNodes.next() == nil else { throw malformed("payload [0] empty") }
        return try octets(octetNode, depth: 0)
    }

    /// An OCTET STRING's bytes, joining BER constructed chunks.
    static func octets(_ node: ASN1Node, depth: Int) throws -> [UInt8] {
        guard node.identifier == .octetString, depth <= maxChunkDepth else { throw malformed("expected OCTET STRING") }
        switch node.content {
        case .primitive(let bytes):
            return Array(bytes)
        case .constructed(let chunks):
            var joined: [UInt8] = []
            for chunk in chunks { joined += try octets(chunk, depth: depth + 1) }
            return joined
        }
    }

    static func expectAlgorithm(_ node: ASN1Node, _ oid: ASN1ObjectIdentifier, _ reason: String) throws {
        var nodes = try children(node, .sequence, "AlgorithmIdentifier")
        guard let algorithm = nodes.next(), try ASN1ObjectIdentifier(berEncoded: algorithm) == oid else { throw malformed(reason) }
        // Parameters: absent, or NULL (RFC 5754 requires accepting both for SHA-256).
        if let parameters = nodes.next() {
            guard parameters.identifier == .null, case .primitive(let content) = parameters.content, content.isEmpty,
                nodes.next() == nil
            else { throw malformed("\(reason): unexpected parameters") }
        }
    }

    /// The message digest of the signed attributes, which must also carry a
    /// content-type attribute of id-data (RFC 5652 §5.3).
    static func findMessageDigest(_ attributes: ASN1Node) throws -> [UInt8] {
        guard case .constructed(let list) = attributes.content else { throw malformed("signed attributes not constructed") }
        var digest: [UInt8]? = nil
        var contentType: ASN1ObjectIdentifier? = nil
        for attribute in list {
            var parts = try children(attribute, .sequence, "Attribute")
            guard let type = parts.next(), let values = parts.next(), parts.next() == nil,
                values.identifier == .set, case .constructed(let set) = values.content
            else {
                throw malformed("attribute must be SEQUENCE { type, SET OF value }")
            }
            var setNodes = set.makeIterator()
            let oid = try ASN1ObjectIdentifier(berEncoded: type)
            if oid == messageDigestOID || oid == contentTypeOID {
                guard let value = setNodes.next(), setNodes.next() == nil else {
                    throw malformed("attribute \(oid) needs exactly one value")
                }
                if oid == messageDigestOID {
                    guard digest == nil else { throw malformed("two messageDigest attributes") }
                    digest = try octets(value, depth: 0)
                } else {
                    guard contentType == nil else { throw malformed("two content-type attributes") }
                    contentType = try ASN1ObjectIdentifier(berEncoded: value)
                }
            }
        }
        guard let contentType else { throw malformed("signed attributes without a content-type attribute") }
        guard contentType == dataOID else { throw malformed("content-type attribute is \(contentType), not id-data") }
        guard let digest else { throw malformed("signed attributes without messageDigest") }
        return digest
    }

    /// Parses a payload on its own (`SET OF SEQUENCE { type, version, value }`).
    public static func parsePayloadFields(_ payload: [UInt8]) throws(AppAttestError) -> [Field] {
        do {
            return try parsePayload(payload)
        } catch let error as AppAttestError {
            throw error
        } catch {
            throw malformed("payload: \(error)")
        }
    }

    static func parsePayload(_ payload: [UInt8]) throws -> [Field] {
        let root = try BER.parse(payload)
        guard root.identifier == .set, case .constructed(let items) = root.content else {
            throw malformed("receipt payload is not a SET")
        }
        var fields: [Field] = []
        for item in items {
            guard fields.count < maxFields else { throw malformed("more than \(maxFields) payload fields") }
            var parts = try children(item, .sequence, "payload field")
            guard let typeNode = parts.next(), let versionNode = parts.next(), let valueNode = parts.next(), parts.next() == nil
            else { throw malformed("payload field must be SEQUENCE { type, version, value }") }
            fields.append(
                Field(
                    type: try Int(berEncoded: typeNode), version: try Int(berEncoded: versionNode),
                    value: try octets(valueNode, depth: 0)))
        }
        return fields
    }
}
