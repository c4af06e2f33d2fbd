import AppAttest
import AppAttestDevice
import Crypto
import Foundation
import StrictCBOR
import TestPKI
import Testing
import TestSupport
import X509

/// The device shapes the server probe's checks need (spec/probe.md, Checks),
/// each judged by the reference verifier: refused with the code of the step
/// it breaks, or accepted where spec/app-attest.md says a verifier must
/// accept it (the iOS 27 shapes, launch data a policy allows). Where a shape
/// breaks only one input, the same object is accepted once that input is
/// what the shape pretends (another app's verifier, the attacker's root…):
/// the shape is consistent, refused for that one reason.
@Suite struct DeviceShapeTests {
    static let appId = "ABCDE12345.org.trustsuite.server-test"
    static let otherAppId = "ABCDE12345.org.trustsuite.other-app"
    static let challenge = Array("probe challenge".utf8)

    static func makeDevice(_ environment: AppAttestEnvironment = .production) throws -> SoftwareDevice {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-shapes-\(UUID().uuidString)")
        return try SoftwareDevice.create(at: folder, appId: appId, environment: environment, seed: 11)
    }

    /// What a verifier must be told to accept a shape that breaks one input.
    enum Repair: Sendable {
        case none
        case appId(String)
        case otherEnvironment
        case attackerAnchor
        case attestedKeyId
        case validationTime(TimeInterval)
    }

    struct AttestShape: Sendable, CustomTestStringConvertible {
        let name: String
        let options: SoftwareDevice.AttestOptions
        let code: AppAttestError.Code
        var repair: Repair = .none
        var testDescription: String { name }
    }

    static let attestShapes: [AttestShape] = [
        AttestShape(name: "other App ID", options: .init(otherAppId: otherAppId), code: .rpIdMismatch, repair: .appId(otherAppId)),
        AttestShape(name: "other environment", options: .init(otherEnvironment: true), code: .aaguidMismatch, repair: .otherEnvironment),
        AttestShape(name: "attacker root", options: .init(attackerRoot: true), code: .certificateChainInvalid, repair: .attackerAnchor),
        AttestShape(name: "key id swapped", options: .init(swapKeyId: true), code: .keyIdMismatch, repair: .attestedKeyId),
        AttestShape(
            name: "certificate key does not hash to the key id", options: .init(certificateKeyMismatch: true),
            code: .keyIdMismatch),
        AttestShape(name: "credential id is not the key id", options: .init(credentialIdMismatch: true), code: .credentialIdMismatch),
        AttestShape(name: "nonce over another challenge", options: .init(nonceOverOtherChallenge: true), code: .nonceMismatch),
        AttestShape(name: "nonce extension with tag [2]", options: .init(nonceShape: .otherTag), code: .nonceExtensionMissing),
        AttestShape(name: "nonce extension in a SET", options: .init(nonceShape: .set), code: .nonceExtensionMissing),
        AttestShape(name: "counter 1", options: .init(counter: 1), code: .counterNotZero),
        AttestShape(name: "counter 2^32-1", options: .init(counter: .max), code: .counterNotZero),
        AttestShape(
            name: "expired credential certificate", options: .init(expiredCertificate: true), code: .certificateChainInvalid,
            repair: .validationTime(-2 * 86_400)),
        // Combined: the first of the nine steps they break decides.
        AttestShape(name: "other environment and counter 1", options: .init(otherEnvironment: true, counter: 1), code: .counterNotZero),
        AttestShape(
            name: "iOS 27 map and key id swapped", options: .init(extensions: true, swapKeyId: true), code: .keyIdMismatch,
            repair: .attestedKeyId),
        AttestShape(
            name: "attacker root and other App ID", options: .init(otherAppId: otherAppId, attackerRoot: true),
            code: .certificateChainInvalid),
    ]

    static func verify(
        _ made: SoftwareDevice.Attestation, on device: SoftwareDevice, repair: Repair = .none,
        policy: LaunchPolicy? = nil
    ) async throws -> AppAttestError.Code? {
        let roots = try device.testRoots
        var appId = Self.appId, environment = device.environment, anchor = roots.attestation, keyId = made.keyId, time = Date()
        switch repair {
        case .none: break
        case .appId(let other): appId = other
        case .otherEnvironment: environment = environment == .production ? .development : .production
        case .attackerAnchor: anchor = try device.attackerRoot()
        case .attestedKeyId: keyId = made.attestedKeyId
        case .validationTime(let offset): time = time.addingTimeInterval(offset)
        }
        let verifier = try AttestationVerifier(
            appId: appId, environment: environment, trustAnchors: [anchor],
            receiptAnchors: [roots.receipt], requireReceipt: true, launchPolicy: policy)
        return await appAttestErrorCode {
            _ = try await verifier.verify(
                attestationObject: made.attestationObject, keyId: keyId, clientDataHash: made.clientDataHash,
                at: time)
        }
    }

    @Test(arguments: attestShapes)
    func attestationShapeIsRefusedForItsStep(_ shape: AttestShape) async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge, options: shape.options)
        #expect(try await Self.verify(made, on: device) == shape.code)
        if case .none = shape.repair { return }
        #expect(try await Self.verify(made, on: device, repair: shape.repair) == nil, "the shape is not otherwise consistent")
    }

    /// The valid shapes: no map (a device before iOS 27), and the iOS 27
    /// attestation with the trailing `apple_*` map and ED clear (spec/app-attest.md,
    /// Attestation object): accepted, the map exposed.
    @Test(arguments: [
        SoftwareDevice.AttestOptions(), .init(extensions: true), .init(validationCategory: 4, bundleVersion: "2.3"),
        .init(extensions: true, validationCategory: 10),
    ])
    func validAttestationShapeIsAccepted(_ options: SoftwareDevice.AttestOptions) async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge, options: options)
        #expect(try await Self.verify(made, on: device) == nil)
        let authData = try AttestationObject(bytes: made.attestationObject).authenticatorData
        #expect(authData.flags.rawValue == 0x40)
        let hasMap = options.extensions || options.validationCategory != nil || options.bundleVersion != nil
        #expect((authData.extensions != nil) == hasMap)
        #expect(authData.launchData?.validationCategory == options.validationCategory ?? (options.extensions ? 1 : nil))
    }

    /// The shapes that break a binding inside the object carry what they
    /// claim: the id sent is the one the object carries, only the named
    /// part differs.
    @Test func bindingShapesBreakOnlyTheirPart() throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        func parts(_ options: SoftwareDevice.AttestOptions) throws -> (
            keyId: [UInt8], credentialId: [UInt8]?, coseKeyId: [UInt8],
            certificateKeyId: [UInt8], counter: UInt32
        ) {
            let made = try device.attest(clientDataHash: Self.challenge, options: options)
            let object = try AttestationObject(bytes: made.attestationObject)
            let leaf = try CertificatePath.certificate(derEncoded: try #require(object.certificates.first))
            let certificateKey = try #require(P256.Signing.PublicKey(leaf.publicKey))
            let cose = try #require(object.authenticatorData.credential?.publicKey)
            return (
                made.keyId, object.authenticatorData.credential?.credentialId, Array(SHA256.hash(data: cose.x963)),
                Array(SHA256.hash(data: certificateKey.x963Representation)), object.authenticatorData.signCount
            )
        }
        let certificate = try parts(.init(certificateKeyMismatch: true))
        #expect(certificate.credentialId == certificate.keyId && certificate.coseKeyId == certificate.keyId)
        #expect(certificate.certificateKeyId != certificate.keyId)
        let credential = try parts(.init(credentialIdMismatch: true))
        #expect(credential.certificateKeyId == credential.keyId && credential.coseKeyId == credential.keyId)
        #expect(credential.credentialId != credential.keyId && credential.credentialId?.count == 32)
        let counted = try parts(.init(counter: 7))
        #expect(counted.counter == 7 && counted.credentialId == counted.keyId)
    }

    /// The reshaped nonce extensions keep the nonce where slicing verifiers
    /// read it (from byte 6 on, as pyattest 1.0.5 does, or the last 32
    /// bytes) while the reference, which parses, refuses them (step 4).
    @Test(arguments: [NonceExtensionShape.otherTag, .set])
    func reshapedNonceFoolsOnlyASlicer(_ shape: NonceExtensionShape) async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge, options: .init(nonceShape: shape))
        let object = try AttestationObject(bytes: made.attestationObject)
        let leaf = try CertificatePath.certificate(derEncoded: try #require(object.certificates.first))
        let value = Array(try #require(leaf.extensions[oid: NonceExtension.oid]).value)
        var hasher = SHA256()
        hasher.update(data: object.authenticatorData.bytes)
        hasher.update(data: Self.challenge)
        let nonce = Array(hasher.finalize())
        #expect(value.count == 38 && Array(value[6...]) == nonce)
        #expect(throws: AppAttestError.self) { try NonceExtension.nonce(fromExtensionValue: value) }
        #expect(try await Self.verify(made, on: device) == .nonceExtensionMissing)
        let standard = try device.attest(clientDataHash: Self.challenge)
        #expect(try await Self.verify(standard, on: device) == nil)
    }

    /// The attacker CA copies the test CA's names, not its keys, and lives
    /// in the device state: the same root on every call and after reopening.
    @Test func attackerRootHasTheTestNamesAndPersists() throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let attacker = try device.attackerRoot()
        let test = try device.testRoots.attestation
        #expect(attacker.subject == test.subject && attacker.issuer == test.issuer)
        #expect(attacker.publicKey != test.publicKey)
        #expect(try SoftwareDevice(stateDirectory: device.stateDirectory).attackerRootPEM() == device.attackerRootPEM())
    }

    /// A state folder written before the attacker CA existed (no `attacker`
    /// in device.json) still loads; the attacker-root shape completes it
    /// once, and every later opening sees the same attacker root.
    @Test func stateWithoutAttackerCALoadsAndIsCompleted() async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let stateURL = device.stateDirectory.appendingPathComponent("device.json")
        var state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stateURL)) as? [String: Any])
        var ca = try #require(state["ca"] as? [String: Any])
        #expect(ca.removeValue(forKey: "attacker") != nil)
        state["ca"] = ca
        try JSONSerialization.data(withJSONObject: state).write(to: stateURL)

        let old = try SoftwareDevice(stateDirectory: device.stateDirectory)
        let plain = try old.attest(clientDataHash: Self.challenge)
        #expect(try await Self.verify(plain, on: old) == nil)
        let made = try old.attest(clientDataHash: Self.challenge, options: .init(attackerRoot: true))
        #expect(try await Self.verify(made, on: old) == .certificateChainInvalid)
        #expect(try await Self.verify(made, on: old, repair: .attackerAnchor) == nil)
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stateURL)) as? [String: Any])
        #expect((saved["ca"] as? [String: Any])?["attacker"] != nil)
        #expect(try SoftwareDevice(stateDirectory: device.stateDirectory).attackerRootPEM() == old.attackerRootPEM())
    }

    // MARK: Assertions

    struct AssertShape: Sendable, CustomTestStringConvertible {
        let name: String
        let options: SoftwareDevice.AssertOptions
        /// The code the reference gives after one assertion (stored counter 1); nil: accepted.
        let code: AppAttestError.Code?
        var repairAppId: String? = nil
        var testDescription: String { name }
    }

    static let assertShapes: [AssertShape] = [
        AssertShape(name: "replay (the last counter again)", options: .init(replayCounter: true), code: .counterNotIncreasing),
        AssertShape(name: "counter equal to the stored one", options: .init(counter: 1), code: .counterNotIncreasing),
        AssertShape(name: "counter below the stored one", options: .init(counter: 0), code: .counterNotIncreasing),
        AssertShape(name: "counter jumps ahead", options: .init(counter: 100), code: nil),
        AssertShape(name: "signed by another key", options: .init(foreignKey: true), code: .signatureInvalid),
        AssertShape(name: "nonce signed as a pre-hashed digest", options: .init(prehashedNonce: true), code: .signatureInvalid),
        AssertShape(name: "other App ID", options: .init(otherAppId: otherAppId), code: .rpIdMismatch, repairAppId: otherAppId),
        // iOS 27 shapes (spec/app-attest.md, Assertion and round 3): accepted.
        AssertShape(name: "flags 0x40", options: .init(flags: 0x40), code: nil),
        AssertShape(name: "flags 0x40 with the apple_* map", options: .init(extensions: true, flags: 0x40), code: nil),
        AssertShape(name: "flags 0xC0 with the apple_* map", options: .init(extensions: true, flags: 0xC0), code: nil),
        AssertShape(name: "flags 0xC0 without a map", options: .init(flags: 0xC0), code: nil),
        // Combined.
        AssertShape(
            name: "pre-hashed nonce with flags 0xC0 and the map", options: .init(extensions: true, prehashedNonce: true, flags: 0xC0),
            code: .signatureInvalid),
        AssertShape(name: "other App ID replayed", options: .init(replayCounter: true, otherAppId: otherAppId), code: .rpIdMismatch),
    ]

    @Test(arguments: assertShapes)
    func assertionShapeIsJudgedByItsStep(_ shape: AssertShape) async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge)
        let key = try P256.Signing.PublicKey(x963Representation: made.publicKey)
        let first = try device.assert(keyId: made.keyId, clientData: [1])
        #expect(first.counter == 1)
        let clientData = Array("{\"challenge\":\"c2\"}".utf8)
        let shaped = try device.assert(keyId: made.keyId, clientData: clientData, options: shape.options)
        func code(_ appId: String) async -> AppAttestError.Code? {
            await appAttestErrorCode {
                _ = try AssertionVerifier(appId: appId).verify(
                    assertion: shaped.assertion, clientData: clientData, publicKey: key,
                    previousCounter: first.counter)
            }
        }
        #expect(await code(Self.appId) == shape.code)
        if let repaired = shape.repairAppId {
            #expect(await code(repaired) == nil, "the shape is not otherwise consistent")
        }
        let parsed = try Assertion(bytes: shaped.assertion)
        #expect(parsed.authenticatorData.flags.rawValue == shape.options.flags)
        #expect((parsed.authenticatorData.extensions != nil) == shape.options.extensions)
        // The stored counter never goes back: the next plain assertion is above both.
        let next = try device.assert(keyId: made.keyId, clientData: [3])
        #expect(next.counter == max(first.counter, shaped.counter) + 1)
    }

    /// The pre-hashed shape is the real bug: it verifies when the nonce is
    /// taken as the digest (what a buggy server does), and only then.
    @Test func prehashedNonceVerifiesOnlyAsADigest() throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge)
        let key = try P256.Signing.PublicKey(x963Representation: made.publicKey)
        let shaped = try device.assert(keyId: made.keyId, clientData: [5], options: .init(prehashedNonce: true))
        let parsed = try Assertion(bytes: shaped.assertion)
        var hasher = SHA256()
        hasher.update(data: parsed.authenticatorData.bytes)
        hasher.update(data: Array(SHA256.hash(data: [5])))
        let nonce = Array(hasher.finalize())
        let signature = try P256.Signing.ECDSASignature(derRepresentation: parsed.signature)
        #expect(key.isValidSignature(signature, for: RawDigest(bytes: nonce)))
        #expect(!key.isValidSignature(signature, for: nonce))
    }

    @Test func replayAndChosenCounterExcludeEachOther() throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge)
        #expect(throws: DeviceError.self) {
            try device.assert(keyId: made.keyId, clientData: [1], options: .init(replayCounter: true, counter: 3))
        }
    }

    /// An attestation's counter is where the key's counter starts.
    @Test func attestationCounterSeedsTheKeysCounter() throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: Self.challenge, options: .init(counter: 41))
        #expect(try device.assert(keyId: made.keyId, clientData: [1]).counter == 42)
        let swapped = try device.attest(clientDataHash: Self.challenge, options: .init(swapKeyId: true))
        #expect(throws: DeviceError.self) { try device.assert(keyId: swapped.keyId, clientData: [1]) }
        #expect(try device.assert(keyId: swapped.attestedKeyId, clientData: [1]).counter == 1)
    }

    // MARK: Launch data under a policy

    struct LaunchShape: Sendable, CustomTestStringConvertible {
        let name: String
        let category: UInt32?
        let version: String?
        let policy: LaunchPolicy
        let code: AppAttestError.Code?
        var testDescription: String { name }
    }

    static let launchShapes: [LaunchShape] = {
        let minimum = BundleVersion("2.2.9")
        return [
            LaunchShape(
                name: "App Store 2.3 under {4}, ≥ 2.2.9", category: 4, version: "2.3",
                policy: LaunchPolicy(allowedValidationCategories: [4], minimumBundleVersion: minimum), code: nil),
            LaunchShape(
                name: "development under {4}", category: 3, version: "2.3",
                policy: LaunchPolicy(allowedValidationCategories: [4]), code: .validationCategoryNotAllowed),
            LaunchShape(
                name: "2.2 under ≥ 2.2.9", category: 4, version: "2.2",
                policy: LaunchPolicy(minimumBundleVersion: minimum), code: .bundleVersionNotAllowed),
            LaunchShape(
                name: "2.10 under ≥ 2.2.9 (numeric, not text)", category: nil, version: "2.10",
                policy: LaunchPolicy(minimumBundleVersion: minimum), code: nil),
            LaunchShape(
                name: "version not dotted decimals under a minimum", category: 4, version: "2.3-beta",
                policy: LaunchPolicy(minimumBundleVersion: minimum), code: .bundleVersionNotAllowed),
            LaunchShape(
                name: "no launch data under reject", category: nil, version: nil,
                policy: LaunchPolicy(allowedValidationCategories: [4], missingLaunchData: .reject), code: .launchDataMissing),
            LaunchShape(
                name: "no launch data under allow", category: nil, version: nil,
                policy: LaunchPolicy(allowedValidationCategories: [4], missingLaunchData: .allow), code: nil),
            LaunchShape(
                name: "version only under a category policy", category: nil, version: "3",
                policy: LaunchPolicy(allowedValidationCategories: [4]), code: .launchDataMissing),
        ]
    }()

    /// The same launch data and policy judge an attestation and an assertion alike.
    @Test(arguments: launchShapes)
    func launchDataUnderAPolicy(_ shape: LaunchShape) async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(
            clientDataHash: Self.challenge,
            options: .init(validationCategory: shape.category, bundleVersion: shape.version))
        #expect(try await Self.verify(made, on: device, policy: shape.policy) == shape.code)
        let assertion = try device.assert(
            keyId: made.keyId, clientData: [7],
            options: .init(validationCategory: shape.category, bundleVersion: shape.version))
        let key = try P256.Signing.PublicKey(x963Representation: made.publicKey)
        #expect(
            await appAttestErrorCode {
                _ = try AssertionVerifier(appId: Self.appId, launchPolicy: shape.policy)
                    .verify(assertion: assertion.assertion, clientData: [7], publicKey: key, previousCounter: 0)
            } == shape.code)
    }
}
