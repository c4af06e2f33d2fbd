import AppAttest
import Foundation
import TestSupport
import Yams

/// The real App Attest data of the external conformance folder
/// (`app-attest/`): Apple's two sample attestations and veehaitch's iOS 14
/// attestations, assertions and receipts.
enum RealData {
    struct Attestation: Sendable, CustomStringConvertible {
        let name: String
        let object: [UInt8]
        let keyId: [UInt8]
        let clientDataHash: [UInt8]
        let appId: String
        let environment: AppAttestEnvironment
        let time: Date
        let publicKeySPKI: [UInt8]?
        var description: String { name }
    }

    struct Assertion: Sendable, CustomStringConvertible {
        let name: String
        let assertion: [UInt8]
        let clientData: [UInt8]
        let appId: String
        let counter: UInt32
        let publicKeySPKI: [UInt8]
        var description: String { name }
    }

    struct Receipt: Sendable, CustomStringConvertible {
        let name: String
        let receipt: [UInt8]
        let appId: String
        let time: Date
        let publicKeySPKI: [UInt8]
        let kind: String
        let creationTime: Date?
        let riskMetric: Int?
        let environment: String
        var description: String { name }
    }

    static func b64(_ value: Any?) -> [UInt8] {
        (value as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
    }

    static func pem(_ value: Any?) -> [UInt8] {
        let body = (value as? String ?? "").split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: body).map { [UInt8]($0) } ?? []
    }

    /// A YAML timestamp: quoted (a string) or plain (Yams makes it a Date).
    static func timestamp(_ value: Any?) -> Date? {
        if let date = value as? Date { return date }
        return (value as? String).flatMap(RFC3339.parse)
    }

    nonisolated(unsafe) static let documents: [[String: Any]] = {
        let folder = Locations.externalVectors.appendingPathComponent("app-attest/veehaitch")
        return Locations.files(in: folder).filter { $0.pathExtension == "yaml" }.flatMap { url -> [[String: Any]] in
            guard let text = try? String(contentsOf: url, encoding: .utf8),
                let docs = try? Yams.load_all(yaml: text)
            else { return [] }
            return docs.compactMap { $0 as? [String: Any] }.map {
                var doc = $0
                doc["file"] = url.deletingPathExtension().lastPathComponent
                return doc
            }
        }
    }()

    static func docs(_ type: String) -> [[String: Any]] { documents.filter { $0["type"] as? String == type } }

    static var attestations: [Attestation] {
        var out = docs("attestation").map { doc in
            let object = b64(doc["attestationBase64"])
            // Validated at the server's recorded time: the embedded receipt was
            // created 2.4–2.9 s later, inside the receipt clock skew (round 3).
            let time = timestamp(doc["timestamp"]) ?? Date(timeIntervalSince1970: 0)
            return Attestation(
                name: "veehaitch/\(doc["file"] ?? "")",
                object: object, keyId: b64(doc["keyIdBase64"]),
                clientDataHash: b64(doc["clientDataHashSha256Base64"]),
                appId: "\(doc["teamIdentifier"] ?? "").\(doc["bundleIdentifier"] ?? "")",
                environment: AppAttestEnvironment(rawValue: doc["environment"] as? String ?? "") ?? .production,
                time: time, publicKeySPKI: pem(doc["publicKey"]))
        }
        for name in ["validation_guide_2024_ios18", "validation_guide_2026_ios27"] {
            guard let data = Locations.external("app-attest/apple-docs/\(name).json"),
                let doc = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            let derived = doc["derived_by_independent_check"] as? [String: Any]
            out.append(
                Attestation(
                    name: "apple/\(name)", object: b64(doc["attestationObject_b64"]), keyId: b64(doc["keyId_b64"]),
                    clientDataHash: b64(doc["clientDataHash_b64"]), appId: doc["appId"] as? String ?? "",
                    environment: AppAttestEnvironment(rawValue: doc["environment"] as? String ?? "") ?? .production,
                    time: RFC3339.parse(doc["validationTime"] as? String ?? "") ?? Date(timeIntervalSince1970: 0),
                    publicKeySPKI: b64(derived?["publicKeySPKI_b64"])))
        }
        return out
    }

    static var assertions: [Assertion] {
        docs("assertion").map { doc in
            Assertion(
                name: "veehaitch/\(doc["file"] ?? "")/\(doc["id"] ?? "")", assertion: b64(doc["assertionBase64"]),
                clientData: b64(doc["clientDataBase64"]),
                appId: "\(doc["teamIdentifier"] ?? "").\(doc["bundleIdentifier"] ?? "")",
                counter: UInt32(doc["counter"] as? Int ?? 0), publicKeySPKI: pem(doc["publicKey"]))
        }
    }

    static var receipts: [Receipt] {
        docs("receipt").map { doc in
            let properties = doc["properties"] as? [String: Any] ?? [:]
            let bytes = b64(doc["receiptBase64"])
            return Receipt(
                name: "veehaitch/\(doc["file"] ?? "")/\(doc["id"] ?? "")", receipt: bytes,
                appId: "\(doc["teamIdentifier"] ?? "").\(doc["bundleIdentifier"] ?? "")",
                time: timestamp(doc["timestamp"]) ?? Date(timeIntervalSince1970: 0),
                publicKeySPKI: pem(doc["publicKey"]), kind: properties["type"] as? String ?? "",
                creationTime: timestamp(properties["creationTime"]),
                riskMetric: properties["riskMetric"] as? Int, environment: properties["environment"] as? String ?? "")
        }
    }
}
