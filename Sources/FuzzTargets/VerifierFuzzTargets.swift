import AppAttest
import AppAttestGenerator
import Crypto
import Dispatch
import Foundation
import StrictCBOR
import SwiftASN1
import X509
import TestPKI

/// The fixed synthetic world the verifier harnesses run in: the CA of the
/// generated vectors (seed 1: the same keys and names as the fixtures'
/// test PKI), their validation time, App ID and clientDataHash.
enum FuzzWorld {
    static let seed: UInt64 = 1
    static let now = AppAttestGenerator.defaultNow
    static let ca: SoftwareCA? = try? SoftwareCA.make(seed: seed, now: now)
    /// Parsed on every use, never kept: a `Certificate` in a global keeps its
    /// public key behind a pointer whose spare bits carry the enum case, which
    /// LeakSanitizer does not recognize, so it reports the key as leaked.
    static var root: Certificate? { ca.flatMap { try? Certificate(derEncoded: $0.attestationRoot) } }
    static let credentialKey: P256.Signing.PrivateKey? = ca?.vectorCredentialKey
    static let appId = SoftwareCA.vectorAppId
    static let clientDataHash = SoftwareCA.vectorClientDataHash
    static let environment = AppAttestEnvironment.production
}

extension FuzzTargets {
    /// Full verification of a fuzzed attestation object against the fixed
    /// test root at the fixed time (key id: the object's credential id).
    /// What verifies holds a public key hashing to the key id and counter 0,
    /// verifies the same way twice, and never verifies against Apple's root.
    public static func attestationVerify(_ bytes: [UInt8]) async -> [String] {
        guard let root = FuzzWorld.root, let object = try? AttestationObject(bytes: bytes) else { return [] }
        let keyId = object.authenticatorData.credential?.credentialId ?? []
        do {
            let verifier = try AttestationVerifier(
                appId: FuzzWorld.appId, environment: FuzzWorld.environment,
                trustAnchors: [root])
            guard
                let verified = try? await verifier.verify(
                    attestationObject: bytes, keyId: keyId,
                    clientDataHash: FuzzWorld.clientDataHash, at: FuzzWorld.now)
            else {
                return []
            }
            var problems: [String] = []
            if Array(SHA256.hash(data: verified.publicKey)) != keyId { problems.append("verified key does not hash to the key id") }
            if verified.counter != 0 { problems.append("verified with counter \(verified.counter)") }
            let again = try? await verifier.verify(
                attestationObject: bytes, keyId: keyId,
                clientDataHash: FuzzWorld.clientDataHash, at: FuzzWorld.now)
            if again?.publicKey != verified.publicKey { problems.append("a second verification differs") }
            let apple = try AttestationVerifier(appId: FuzzWorld.appId, environment: FuzzWorld.environment)
            if (try? await apple.verify(
                attestationObject: bytes, keyId: keyId, clientDataHash: FuzzWorld.clientDataHash,
                at: FuzzWorld.now)) != nil
            {
                problems.append("a test-PKI attestation verified against Apple's root")
            }
            return problems
        } catch {
            return ["verifier could not be made: \(error)"]
        }
    }

    /// Re-signing harness: the input is authenticator data; a credential
    /// certificate whose nonce covers it is issued by the test intermediate,
    /// so verification gets past the signatures to steps 5–9. The verdict
    /// is then predicted from the raw bytes at their fixed offsets
    /// (independently of the parser): accepted exactly when the header and
    /// credential data say so, and each refusal's code matches the field
    /// that is wrong.
    /// Why re-signing could not produce a verdict.
    enum ResignFailure: Error {
        /// The fixed world (test CA, root, credential key) is unavailable.
        case noWorld
        case cannotIssue(any Error)
        case noVerifier(any Error)
    }

    /// Re-signs `authData` — a credential certificate from the test CA whose
    /// nonce covers it, in an object with an empty receipt — and verifies
    /// it against the test root: the verified key or the verifier's error.
    static func resign(_ authData: [UInt8]) async -> Result<Result<[UInt8], AppAttestError>, ResignFailure> {
        guard let ca = FuzzWorld.ca, let root = FuzzWorld.root, let key = FuzzWorld.credentialKey else { return .failure(.noWorld) }
        let leaf: [UInt8]
        let verifier: AttestationVerifier
        do {
            leaf = try ca.credentialCertificate(
                authData: authData, clientDataHash: FuzzWorld.clientDataHash, key: key.publicKey,
                notBefore: FuzzWorld.now.addingTimeInterval(-86_400), notAfter: FuzzWorld.now.addingTimeInterval(2 * 86_400))
        } catch {
            return .failure(.cannotIssue(error))
        }
        do {
            verifier = try AttestationVerifier(appId: FuzzWorld.appId, environment: FuzzWorld.environment, trustAnchors: [root])
        } catch {
            return .failure(.noVerifier(error))
        }
        do {
            return .success(
                .success(
                    try await verifier.verify(
                        attestationObject: ca.object(leaf: leaf, authData: authData, receipt: []),
                        keyId: Array(SHA256.hash(data: key.publicKey.x963Representation)),
                        clientDataHash: FuzzWorld.clientDataHash, at: FuzzWorld.now
                    ).publicKey))
        } catch {
            return .success(.failure(error))
        }
    }

    public static func attestationResigned(_ bytes: [UInt8]) async -> [String] {
        guard let key = FuzzWorld.credentialKey else { return [] }
        let publicKey = Array(key.publicKey.x963Representation)
        let keyId = Array(SHA256.hash(data: publicKey))
        let result: Result<[UInt8], AppAttestError>
        switch await resign(bytes) {
        case .success(let verdict): result = verdict
        case .failure(.noWorld): return []
        case .failure(.cannotIssue(let error)): return ["the test CA could not issue a certificate: \(error)"]
        case .failure(.noVerifier(let error)): return ["verifier could not be made: \(error)"]
        }

        // The fields at their offsets (rpIdHash 0..<32, flags 32, counter
        // 33..<37, aaguid 37..<53, id length 53..<55, id 55…).
        let rpOK = bytes.count >= 32 && Array(bytes[0..<32]) == Array(SHA256.hash(data: Array(FuzzWorld.appId.utf8)))
        let counterZero = bytes.count >= 37 && bytes[33..<37].allSatisfy { $0 == 0 }
        let aaguidOK = bytes.count >= 53 && Array(bytes[37..<53]) == FuzzWorld.environment.aaguid
        let idLength = bytes.count >= 55 ? Int(bytes[53]) << 8 | Int(bytes[54]) : -1
        let idOK = idLength == 32 && bytes.count >= 55 + 32 && Array(bytes[55..<87]) == keyId

        switch result {
        case .success(let key):
            var problems: [String] = []
            if key != publicKey { problems.append("verified another key") }
            if !rpOK { problems.append("verified with a wrong rpIdHash") }
            if !counterZero { problems.append("verified with a non-zero counter") }
            if !aaguidOK { problems.append("verified with another environment's aaguid") }
            if !idOK { problems.append("verified with a credential id that is not the key id") }
            return problems
        case .failure(let error):
            switch error.code {
            case .rpIdMismatch where rpOK: return ["rpIdMismatch for the right rpIdHash"]
            case .counterNotZero where counterZero: return ["counterNotZero for a zero counter"]
            case .aaguidMismatch where aaguidOK: return ["aaguidMismatch for the right aaguid"]
            case .credentialIdMismatch where idOK: return ["credentialIdMismatch for the key id"]
            case .nonceMismatch, .certificateChainInvalid, .missingCertificates, .unsupportedFormat, .nonceExtensionMissing,
                .keyIdMismatch:
                return ["\(error.code) on an object the test CA signed correctly: \(error)"]
            default: return []
            }
        }
    }
}
