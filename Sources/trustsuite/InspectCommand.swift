import StrictCBOR
import AppAttest
import ArgumentParser
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import SwiftASN1
import X509
import TrustSuiteSupport

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Explain an attestation, assertion or receipt field by field.",
        discussion: "FILE holds the object in binary or base64; its kind is recognised from its structure. Nothing is verified."
    )

    @Argument(help: "An attestation object, assertion or receipt (binary or base64).") var file: String

    func run() throws {
        let bytes = try InputFiles.object(file)
        var attempts: [String] = []
        do {
            let object = try AttestationObject(bytes: bytes)
            print(Explain.attestation(object))
            return
        } catch { attempts.append("attestation: \(error)") }
        do {
            let assertion = try Assertion(bytes: bytes)
            print(Explain.assertion(assertion))
            return
        } catch { attempts.append("assertion: \(error)") }
        do {
            let receipt = try Receipt(bytes: bytes)
            print(Explain.receipt(receipt))
            return
        } catch { attempts.append("receipt: \(error)") }
        FileHandle.standardError.write(
            Data(
                ("trustsuite: \(file) is not an attestation, assertion or receipt:\n"
                    + attempts.map { "  \($0)" }.joined(separator: "\n") + "\n").utf8))
        throw ExitCode(1)
    }
}

/// Field-by-field descriptions for `trustsuite inspect`.
enum Explain {
    static func certificate(_ der: [UInt8], indent: String) -> [String] {
        guard let cert = try? Certificate(derEncoded: der) else { return ["\(indent)(\(der.count) bytes, does not parse as X.509)"] }
        var lines = [
            "\(indent)subject: \(cert.subject)",
            "\(indent)issuer: \(cert.issuer)",
            "\(indent)serial: \(cert.serialNumber)",
            "\(indent)valid: \(RFC3339.format(cert.notValidBefore)) to \(RFC3339.format(cert.notValidAfter))",
            "\(indent)signature algorithm: \(cert.signatureAlgorithm)",
        ]
        if let key = P256.Signing.PublicKey(cert.publicKey) {
            let point = Array(key.x963Representation)
            lines.append("\(indent)public key (P-256, X9.63): \(BinaryText.base64(point))")
            lines.append("\(indent)SHA-256 of the key (the key id): \(BinaryText.base64(Array(SHA256.hash(data: point))))")
        } else {
            lines.append("\(indent)public key: \(cert.publicKey)")
        }
        if let nonce = try? NonceExtension.nonce(in: cert) {
            lines.append("\(indent)nonce extension (1.2.840.113635.100.8.2): \(BinaryText.hex(nonce))")
        }
        for ext in cert.extensions {
            let head = "\(indent)extension \(ext.oid)\(ext.critical ? " (critical)" : ""): \(ext.value.count) bytes"
            guard let reading = AppleCertificateExtensions.read(oid: ext.oid, value: ext.value) else {
                lines.append(head)
                continue
            }
            lines.append("\(head), \(reading.label)")
            lines += reading.lines.map { "\(indent)  \($0)" }
        }
        return lines
    }

    static func authenticatorData(_ data: AuthenticatorData) -> [String] {
        var names: [String] = []
        let flagNames: [(AuthenticatorData.Flags, String)] = [
            (.userPresent, "UP"), (.userVerified, "UV"), (.backupEligible, "BE"), (.backupState, "BS"),
            (.attestedCredentialData, "AT"), (.extensionData, "ED"),
        ]
        for (flag, name) in flagNames where data.flags.contains(flag) { names.append(name) }
        var lines = [
            "authenticator data: \(data.bytes.count) bytes",
            "  rpIdHash: \(BinaryText.hex(data.rpIdHash)) (SHA-256 of TEAMID.bundle.id)",
            "  flags: 0x\(BinaryText.hex([data.flags.rawValue])) \(names.isEmpty ? "(none)" : names.joined(separator: " "))",
            "  signCount: \(data.signCount)",
        ]
        if let credential = data.credential {
            let environment = AppAttestEnvironment.allCases.first { $0.aaguid == credential.aaguid }
            let printable = String(decoding: credential.aaguid.filter { $0 != 0 }, as: UTF8.self)
            lines.append(
                "  aaguid: \(BinaryText.hex(credential.aaguid)) \"\(printable)\" (\(environment?.rawValue ?? "unknown environment"))")
            lines.append("  credentialId: \(BinaryText.base64(credential.credentialId))")
            lines.append(
                "  credential public key (COSE EC2 P-256): x \(BinaryText.hex(credential.publicKey.x)), y \(BinaryText.hex(credential.publicKey.y))"
            )
        }
        if let extensions = data.extensions { lines.append("  trailing extensions: \(extensions.diagnostic)") }
        if let launch = data.launchData {
            let category =
                launch.validationCategory.map { "\($0) (\(LaunchData.validationCategoryName($0)), name informational)" } ?? "absent"
            lines.append(
                "  launch data: validation category \(category), bundle version \(launch.bundleVersion.map { "\"\($0)\"" } ?? "absent")")
            lines.append("  launch data shape: \(launchShape(launch))")
            if launch.shape == .macOS {
                let type =
                    launch.codeDirectoryHashType.map { "\($0) (\(LaunchData.codeDirectoryHashTypeName($0)), name informational)" }
                    ?? "absent"
                let hash =
                    launch.codeDirectoryHash.map {
                        "\(BinaryText.hex($0)) (\($0.count) bytes\($0.count == 20 ? ", truncated CDHash" : ""))"
                    } ?? "absent"
                lines.append("  code-directory hash: type \(type), hash \(hash)")
            }
        }
        return lines
    }

    /// The platform whose launch data this is (docs/models/app-attest.md,
    /// macOS 27): the code-directory hash keys make the macOS shape; without
    /// them the keys are iOS's, which a Mac without the hash option writes too.
    static func launchShape(_ launch: LaunchData) -> String {
        switch launch.shape {
        case .macOS: return "macOS 27 (\(LaunchData.codeDirectoryHashTypeKey) / \(LaunchData.codeDirectoryHashKey) present)"
        case .iOS:
            let mac =
                launch.validationCategory == 6 ? "; category 6 (Developer ID) is a Mac app's, without the code-directory hash option" : ""
            return "iOS 27 (no code-directory hash keys\(mac))"
        }
    }

    static func attestation(_ object: AttestationObject) -> String {
        var lines = ["App Attest attestation object", "fmt: \(object.format)", "x5c: \(object.certificates.count) certificate(s)"]
        for (index, der) in object.certificates.enumerated() {
            lines.append("  [\(index)] \(index == 0 ? "credential certificate" : "intermediate"), \(der.count) bytes")
            lines += certificate(der, indent: "      ")
        }
        lines += authenticatorData(object.authenticatorData)
        lines.append("receipt: \(object.receipt.count) bytes")
        if let receipt = try? Receipt(bytes: object.receipt) {
            lines += fields(receipt).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    static func assertion(_ assertion: Assertion) -> String {
        (["App Attest assertion", "signature (DER ECDSA P-256): \(BinaryText.hex(assertion.signature))"]
            + authenticatorData(assertion.authenticatorData)).joined(separator: "\n")
    }

    static func fields(_ receipt: Receipt) -> [String] {
        receipt.fields.map { field in
            let type = Receipt.FieldType(rawValue: field.type)
            let name = type?.title ?? "unknown"
            let text = String(validating: field.value, as: UTF8.self)
            let shown: String
            switch type {
            case .attestedCertificate: shown = "\(field.value.count) bytes of DER"
            case .clientHash, .token: shown = BinaryText.base64(field.value)
            case .appId, .kind, .environment, .creationTime, .riskMetric, .earliestRefresh, .expirationTime, nil:
                shown = text.map { "\"\($0)\"" } ?? BinaryText.base64(field.value)
            }
            return "field \(field.type) (\(name), version \(field.version)): \(shown)"
        }
    }

    static func receipt(_ receipt: Receipt) -> String {
        var lines = ["App Attest receipt (CMS SignedData)", "payload: \(receipt.payload.count) bytes, \(receipt.fields.count) fields"]
        lines += fields(receipt).map { "  " + $0 }
        if let der = receipt.attestedCertificate {
            lines.append("attested credential certificate:")
            lines += certificate(der, indent: "  ")
        }
        lines.append("certificates: \(receipt.certificates.count)")
        for (index, der) in receipt.certificates.enumerated() {
            lines.append("  [\(index)]")
            lines += certificate(der, indent: "      ")
        }
        lines.append("signature (DER ECDSA): \(receipt.signature.count) bytes")
        return lines.joined(separator: "\n")
    }
}
