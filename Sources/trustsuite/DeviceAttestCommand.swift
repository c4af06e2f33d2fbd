import AppAttestDevice
import ArgumentParser
import ConformanceKit
import VectorContract
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
            The failure shapes (docs/probe.md, The checks) each break one step of the server's \
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

    @Flag(
        name: .customLong("expired-certificate"),
        help: "Failure shape: a credential certificate that expired a day ago (certificateChainInvalid).")
    var expiredCertificate = false

    @OptionGroup var otherApp: DeviceOtherAppOption

    @Flag(
        name: .customLong("attacker-root"),
        help: "Failure shape: issued by an attacker CA with the test CA's names, other keys (certificateChainInvalid).")
    var attackerRoot = false

    @Flag(
        name: .customLong("swap-key-id"),
        help: "Failure shape: print another key's id as keyId; the object is consistent for its own key (keyIdMismatch).")
    var swapKeyId = false

    @Flag(
        name: .customLong("certificate-key-mismatch"),
        help: "Failure shape: the credential certificate certifies another key than the key id the object carries (keyIdMismatch).")
    var certificateKeyMismatch = false

    @Flag(name: .customLong("credential-id-mismatch"), help: "Failure shape: the credential id is another key's id (credentialIdMismatch).")
    var credentialIdMismatch = false

    @Flag(
        name: .customLong("nonce-over-other-challenge"),
        help: "Failure shape: the certificate's nonce covers another challenge (nonceMismatch).")
    var nonceOverOtherChallenge = false

    @Option(
        name: .customLong("nonce-shape"),
        help: ArgumentHelp(
            "The nonce extension's DER shape: standard, other-tag ([2] for [1]) or set (SET for SEQUENCE); the last two keep the nonce where slicing verifiers look (nonceExtensionMissing).",
            valueName: "shape"))
    var nonceShape: NonceExtensionShape = .standard

    @Option(
        name: .long, help: ArgumentHelp("Failure shape: the attestation's signCount (real ones are 0: counterNotZero).", valueName: "n"))
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
            counter: counter, platform: launch.platform, codeDirectoryHash: launch.codeDirectoryHash,
            omitCodeDirectoryHash: launch.noCodeDirectoryHash)
        let made = try withDevice { try device.attest(clientDataHash: clientDataHash, options: options) }
        // The hash a server allowlists, when the object carries one (macOS 27).
        let hash = options.writtenCodeDirectoryHash(appId: otherApp.otherAppId ?? device.appId)
        if json {
            var fields: [String: JSONValue] = [
                "keyId": .base64(made.keyId), "attestationObject": .base64(made.attestationObject),
                "clientDataHash": .base64(made.clientDataHash), "publicKey": .base64(made.publicKey),
            ]
            if swapKeyId { fields["attestedKeyId"] = .base64(made.attestedKeyId) }
            if let hash { fields["codeDirectoryHash"] = .string(BinaryText.hex(hash)) }
            print(JSONValue.object(fields).jsonText)
        } else {
            print("keyId: \(Data(made.keyId).base64EncodedString())")
            if swapKeyId { print("attestedKeyId: \(Data(made.attestedKeyId).base64EncodedString())") }
            print("attestationObject: \(Data(made.attestationObject).base64EncodedString())")
            print("receipt: \(Data(made.receipt).base64EncodedString())")
            print("publicKey: \(Data(made.publicKey).base64EncodedString())")
            if let hash { print("codeDirectoryHash: \(BinaryText.hex(hash))") }
        }
    }
}

/// `--other-app-id`: the object is made for another app (rpIdHash; for an
/// attestation, the receipt's App ID too), shared by `attest` and `assert`.
struct DeviceOtherAppOption: ParsableArguments {
    @Option(
        name: .customLong("other-app-id"),
        help: ArgumentHelp(
            "Failure shape: made for this App ID instead of the device's (rpIdMismatch).", valueName: "app-id"))
    var otherAppId: String?

    func validate() throws {
        if otherAppId?.isEmpty == true { throw ValidationError("--other-app-id: empty App ID") }
    }
}

/// The launch data `attest` and `assert` write, as iOS 27 and macOS 27
/// devices do (docs/models/app-attest.md, Launch policy and macOS 27).
/// Without any of these the device writes no map, as devices before iOS 27.
struct DeviceLaunchDataOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Append the iOS 27 map of Apple's 2026 sample (category 1, bundle version \"1\"); the options below replace a value.")
    var extensions = false

    @Option(
        name: .customLong("validation-category"),
        help: ArgumentHelp("Write apple_validation_category_01 with this number (4 bytes, little-endian).", valueName: "n"))
    var validationCategory: UInt32?

    @Option(name: .customLong("bundle-version"), help: ArgumentHelp("Write apple_bundle_version_01 with this text.", valueName: "text"))
    var bundleVersion: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "ios (default), or macos: the macOS 27 map — category 6 (Developer ID), bundle version \"1\", apple_cd_hash_type_01 2 (SHA-256) and apple_cd_hash_hash_01 (a stand-in hash of the App ID, printed as codeDirectoryHash by attest); the options around it replace a value.",
            valueName: "platform"))
    var platform: LaunchPlatform = .ios

    @Option(
        name: .customLong("code-directory-hash"),
        help: ArgumentHelp(
            "Write apple_cd_hash_hash_01 with this hash (hex, 32 bytes or the 20-byte truncated CDHash) and type 2, on either platform.",
            valueName: "hex"), transform: DeviceLaunchDataOptions.parseCodeDirectoryHash)
    var codeDirectoryHash: [UInt8]?

    @Flag(
        name: .customLong("no-code-directory-hash"),
        help: "With --platform macos: leave the code-directory hash keys out (an app without the hash option).")
    var noCodeDirectoryHash = false

    static func parseCodeDirectoryHash(_ text: String) throws -> [UInt8] {
        guard let bytes = BinaryText.hex(text), [32, 20].contains(bytes.count) else {
            throw ValidationError("--code-directory-hash must be hex of 32 or 20 bytes (64 or 40 hex digits)")
        }
        return bytes
    }

    func validate() throws {
        if noCodeDirectoryHash && platform != .macos { throw ValidationError("--no-code-directory-hash goes with --platform macos") }
        if noCodeDirectoryHash && codeDirectoryHash != nil {
            throw ValidationError("give --code-directory-hash or --no-code-directory-hash, not both")
        }
    }
}

extension LaunchPlatform: ExpressibleByArgument {}
