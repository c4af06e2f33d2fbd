import AppAttest
import Foundation
import Yams

/// The real-device App Attest data of the external conformance folder
/// (`TRUSTSUITE_EXTERNAL_VECTORS`/`app-attest`, described by its README):
/// Apple's two published sample attestations and veehaitch's iOS 14
/// attestations, assertions and receipts, read as written. The real-root
/// vector files (``RealRootVectors``) are made from nothing else.
struct RealDeviceData {
    /// Where one datum comes from, and its licence (kept with the vectors).
    struct Origin: Sendable {
        let file: String
        let document: String
        let citation: String
        let licence: String
    }

    struct Attestation: Sendable {
        let origin: Origin
        let name: String
        let object: [UInt8]
        let keyId: [UInt8]
        let clientDataHash: [UInt8]
        /// The preimage of `clientDataHash` when it is its SHA-256 (veehaitch), nil for a raw challenge (Apple).
        let challenge: [UInt8]?
        let appId: String
        let environment: String
        /// The validation time as the datum records it (RFC 3339).
        let time: String
        /// SubjectPublicKeyInfo DER of the attested key, as the datum states it.
        let publicKeySPKI: [UInt8]
    }

    struct Assertion: Sendable {
        let origin: Origin
        let name: String
        let assertion: [UInt8]
        let clientData: [UInt8]
        let appId: String
        let counter: UInt32
        let publicKeySPKI: [UInt8]
    }

    struct Receipt: Sendable {
        let origin: Origin
        let name: String
        let receipt: [UInt8]
        let appId: String
        let time: String
        let publicKeySPKI: [UInt8]
        let kind: String
        let creationTime: String
        let expirationTime: String?
        let riskMetric: Int?
    }

    static let veehaitchCitation = "veehaitch/devicecheck-appattest @ cb26211, src/test/resources/"
    static let veehaitchLicence = "Apache-2.0, as upstream (veehaitch/devicecheck-appattest); not under this project's CC0 grant"
    static let appleLicence =
        "Apple developer documentation content (© Apple Inc.), quoted as published; not under this project's CC0 grant"

    var attestations: [Attestation] = []
    var assertions: [Assertion] = []
    var receipts: [Receipt] = []

    /// A datum the external folder should hold but does not, or holds in another shape.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads `folder/app-attest` (the external conformance folder).
    init(folder: URL) throws {
        let base = folder.appendingPathComponent("app-attest")
        for name in ["validation_guide_2024_ios18", "validation_guide_2026_ios27"] {
            try readApple(base.appendingPathComponent("apple-docs/\(name).json"), name: name)
        }
        let veehaitch = base.appendingPathComponent("veehaitch")
        let names = try FileManager.default.contentsOfDirectory(atPath: veehaitch.path).filter { $0.hasSuffix(".yaml") }.sorted()
        guard !names.isEmpty else { throw Problem("\(veehaitch.path): no .yaml file") }
        for name in names { try readVeehaitch(veehaitch.appendingPathComponent(name)) }
    }

    mutating func readApple(_ url: URL, name: String) throws {
        guard let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw Problem("\(url.path): not a JSON object")
        }
        let source = doc["source"] as? [String: Any]
        let origin = Origin(
            file: "apple-docs/\(name).json", document: name,
            citation: "\(source?["repo"] as? String ?? "Apple developer documentation")", licence: Self.appleLicence)
        let derived = doc["derived_by_independent_check"] as? [String: Any]
        attestations.append(
            Attestation(
                origin: origin, name: name.hasPrefix("validation_guide_2024") ? "apple-2024-ios18" : "apple-2026-ios27",
                object: try Self.base64(doc["attestationObject_b64"], url), keyId: try Self.base64(doc["keyId_b64"], url),
                clientDataHash: try Self.base64(doc["clientDataHash_b64"], url), challenge: nil,
                appId: try Self.text(doc["appId"], url), environment: try Self.text(doc["environment"], url),
                time: try Self.text(doc["validationTime"], url), publicKeySPKI: try Self.base64(derived?["publicKeySPKI_b64"], url)))
    }

    mutating func readVeehaitch(_ url: URL) throws {
        let file = url.lastPathComponent
        let stem = url.deletingPathExtension().lastPathComponent
        for case let doc as [String: Any] in try Yams.load_all(yaml: String(contentsOf: url, encoding: .utf8)) {
            let id = try Self.text(doc["id"], url)
            let origin = Origin(
                file: "veehaitch/\(file)", document: id, citation: Self.veehaitchCitation + file, licence: Self.veehaitchLicence)
            let appId = "\(try Self.text(doc["teamIdentifier"], url)).\(try Self.text(doc["bundleIdentifier"], url))"
            let key = try Self.pem(doc["publicKey"], url)
            switch doc["type"] as? String {
            case "attestation":
                attestations.append(
                    Attestation(
                        origin: origin, name: "veehaitch-\(stem)", object: try Self.base64(doc["attestationBase64"], url),
                        keyId: try Self.base64(doc["keyIdBase64"], url),
                        clientDataHash: try Self.base64(doc["clientDataHashSha256Base64"], url),
                        challenge: try Self.base64(doc["clientDataBase64"], url), appId: appId,
                        environment: try Self.text(doc["environment"], url), time: try Self.time(doc["timestamp"], url), publicKeySPKI: key)
                )
            case "assertion":
                guard let counter = doc["counter"] as? Int, let value = UInt32(exactly: counter) else {
                    throw Problem("\(url.path) \(id): counter is not a 32-bit count")
                }
                assertions.append(
                    Assertion(
                        origin: origin, name: "veehaitch-\(stem)", assertion: try Self.base64(doc["assertionBase64"], url),
                        clientData: try Self.base64(doc["clientDataBase64"], url), appId: appId, counter: value, publicKeySPKI: key))
            case "receipt":
                let properties = doc["properties"] as? [String: Any] ?? [:]
                let bytes = try Self.base64(doc["receiptBase64"], url)
                // The creation time as the receipt writes it: the YAML's was re-formatted by
                // its writer (trailing zeros added, one value a millisecond off).
                let written = (try? AppAttest.Receipt(bytes: bytes))?.creationTimeText
                receipts.append(
                    Receipt(
                        origin: origin, name: "veehaitch-\(stem)-\(id.prefix(8))", receipt: bytes,
                        appId: appId, time: try Self.time(doc["timestamp"], url), publicKeySPKI: key,
                        kind: try Self.text(properties["type"], url),
                        creationTime: try written ?? Self.time(properties["creationTime"], url),
                        expirationTime: properties["expirationTime"].flatMap { try? Self.time($0, url) },
                        riskMetric: properties["riskMetric"] as? Int))
            default:
                throw Problem("\(url.path) \(id): unknown type \(doc["type"] ?? "(none)")")
            }
        }
    }

    static func text(_ value: Any?, _ url: URL) throws -> String {
        guard let text = value as? String, !text.isEmpty else { throw Problem("\(url.path): a text field is missing") }
        return text
    }

    static func base64(_ value: Any?, _ url: URL) throws -> [UInt8] {
        guard let data = Data(base64Encoded: try text(value, url)) else { throw Problem("\(url.path): malformed base64") }
        return [UInt8](data)
    }

    static func pem(_ value: Any?, _ url: URL) throws -> [UInt8] {
        let body = try text(value, url).split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let data = Data(base64Encoded: body) else { throw Problem("\(url.path): malformed PEM key") }
        return [UInt8](data)
    }

    /// A timestamp as written (YAML may have made it a date: written back in RFC 3339 with milliseconds).
    static func time(_ value: Any?, _ url: URL) throws -> String {
        if let date = value as? Date { return RFC3339.format(date, fractional: true) }
        let text = try text(value, url)
        guard RFC3339.parse(text) != nil else { throw Problem("\(url.path): \"\(text)\" is not RFC 3339") }
        return text
    }
}
