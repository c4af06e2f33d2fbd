import AppAttestDevice
import ArgumentParser
import ConformanceKit
import Crypto
import Foundation
import TrustSuiteSupport

extension NonceExtensionShape: ExpressibleByArgument {}

struct DeviceAttestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attest",
        abstract: "Generate a key and attest it, as DCAppAttestService.attestKey does.",
        discussion: """
            Prints the key id, the attestation object, its receipt and the public key (X9.63), base64, \
            one `name: value` per line; with \
            --json, {"keyId", "attestationObject", "clientDataHash", "publicKey"}. The challenge is \
            passed as clientDataHash as given (Apple's samples do this), or hashed with --hash-challenge. \
            The failure shapes (spec/probe.md, Checks) each break one step of the server's \
            verification and keep the rest consistent; they combine. With --swap-key-id the output \
            also has attestedKeyId, the key to assert with.
            """
    )

    @OptionGroup var device: DeviceStateOption

    @Option(name: .long, help: ArgumentHelp("The server's challenge, base64.", valueName: "b64"))
    var challenge: String

    @Flag(name: .customLong("hash-challenge"), help: "Pass SHA-256 of the challenge as clientDataHash.")
    var hashChallenge = false

    @Flag(name: .long, help: "Answer in JSON.")
    var json = false

    @Flag(name: .customLong("other-environment"), help: "Failure shape: the other environment's aaguid (aaguidMismatch).")
    var otherEnvironment = false

    @Flag(name: .customLong("expired-certificate"), help: "Failure shape: a credential certificate that expired a day ago (certificateChainInvalid).")
    var expiredCertificate = false

    @OptionGroup var otherApp: DeviceOtherAppOption

    @Flag(name: .customLong("attacker-root"), help: "Failure shape: issued by an attacker CA with the test CA's names, other keys (certificateChainInvalid).")
    var attackerRoot = false

    @Flag(name: .customLong("swap-key-id"), help: "Failure shape: print another key's id as keyId; the object is consistent for its own key (keyIdMismatch).")
    var swapKeyId = false

    @Flag(name: .customLong("certificate-key-mismatch"), help: "Failure shape: the credential certificate certifies another key than the key id the object carries (keyIdMismatch).")
    var certificateKeyMismatch = false

    @Flag(name: .customLong("credential-id-mismatch"), help: "Failure shape: the credential id is another key's id (credentialIdMismatch).")
    var credentialIdMismatch = false

    @Flag(name: .customLong("nonce-over-other-challenge"), help: "Failure shape: the certificate's nonce covers another challenge (nonceMismatch).")
    var nonceOverOtherChallenge = false

    @Option(name: .customLong("nonce-shape"), help: ArgumentHelp(
        "The nonce extension's DER shape: standard, other-tag ([2] for [1]) or set (SET for SEQUENCE); the last two keep the nonce where slicing verifiers look (nonceExtensionMissing).",
        valueName: "shape"))
    var nonceShape: NonceExtensionShape = .standard

    @Option(name: .long, help: ArgumentHelp("Failure shape: the attestation's signCount (real ones are 0: counterNotZero).", valueName: "n"))
    var counter: UInt32 = 0

    @OptionGroup var launch: DeviceLaunchDataOptions

    func run() throws {
        let device = try device.open()
        guard let challengeBytes = BinaryText.base64(challenge) else { throw CLIError("--challenge is not standard base64") }
        let clientDataHash = hashChallenge ? Array(SHA256.hash(data: challengeBytes)) : challengeBytes
        let options = SoftwareDevice.AttestOptions(
            otherEnvironment: otherEnvironment, expiredCertificate: expiredCertificate, extensions: launch.extensions,
            validationCategory: launch.validationCategory, bundleVersion: launch.bundleVersion, otherAppId: otherApp.otherAppId,
            attackerRoot: attackerRoot, swapKeyId: swapKeyId, certificateKeyMismatch: certificateKeyMismatch,
            credentialIdMismatch: credentialIdMismatch, nonceOverOtherChallenge: nonceOverOtherChallenge, nonceShape: nonceShape,
            counter: counter)
        let made = try withDevice { try device.attest(clientDataHash: clientDataHash, options: options) }
        if json {
            var fields: [String: JSONValue] = [
                "keyId": .base64(made.keyId), "attestationObject": .base64(made.attestationObject),
                "clientDataHash": .base64(made.clientDataHash), "publicKey": .base64(made.publicKey),
            ]
            if swapKeyId { fields["attestedKeyId"] = .base64(made.attestedKeyId) }
            print(JSONValue.object(fields).jsonText)
        } else {
            print("keyId: \(Data(made.keyId).base64EncodedString())")
            if swapKeyId { print("attestedKeyId: \(Data(made.attestedKeyId).base64EncodedString())") }
            print("attestationObject: \(Data(made.attestationObject).base64EncodedString())")
            print("receipt: \(Data(made.receipt).base64EncodedString())")
            print("publicKey: \(Data(made.publicKey).base64EncodedString())")
        }
    }
}

/// `--other-app-id`: the object is made for another app (rpIdHash; for an
/// attestation, the receipt's App ID too), shared by `attest` and `assert`.
struct DeviceOtherAppOption: ParsableArguments {
    @Option(name: .customLong("other-app-id"), help: ArgumentHelp(
        "Failure shape: made for this App ID instead of the device's (rpIdMismatch).", valueName: "app-id"))
    var otherAppId: String?

    func validate() throws {
        if otherAppId?.isEmpty == true { throw ValidationError("--other-app-id: empty App ID") }
    }
}

/// The launch data `attest` and `assert` write, as iOS 27 devices do
/// (spec/app-attest.md, Amendments (round 3)). Without any of these the
/// device writes no map, as devices before iOS 27.
struct DeviceLaunchDataOptions: ParsableArguments {
    @Flag(name: .long, help: "Append the iOS 27 map of Apple's 2026 sample (category 1, bundle version \"1\"); the options below replace a value.")
    var extensions = false

    @Option(name: .customLong("validation-category"), help: ArgumentHelp("Write apple_validation_category_01 with this number (4 bytes, little-endian).", valueName: "n"))
    var validationCategory: UInt32?

    @Option(name: .customLong("bundle-version"), help: ArgumentHelp("Write apple_bundle_version_01 with this text.", valueName: "text"))
    var bundleVersion: String?
}
