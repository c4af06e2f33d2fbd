import AppAttest
import AppAttestDevice
import ArgumentParser
import ConformanceKit
import Crypto
import Foundation
import TrustSuiteSupport

struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "A software App Attest device for server tests (test CA, never Apple's).",
        discussion: """
            The device keeps its state in a folder (--state): a test CA shaped like Apple's, its keys \
            and their counters. What it makes verifies against the roots `device ca` prints and \
            is rejected against Apple's. Start with `device init`.
            """,
        subcommands: [DeviceInitCommand.self, DeviceCACommand.self, DeviceAttestCommand.self, DeviceAssertCommand.self,
                      DeviceTokenCommand.self]
    )
}


/// Runs `body`, reporting a device error as the CLI's one-line refusal.
func withDevice<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as DeviceError {
        throw CLIError(error.description)
    } catch let error as StateFileError {
        throw CLIError(error.description)
    }
}

struct DeviceStateOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The device's state folder.", valueName: "dir"))
    var state: String

    func validate() throws {
        guard !state.isEmpty else { throw ValidationError("--state: empty path") }
    }

    func open() throws -> SoftwareDevice {
        try withDevice { try SoftwareDevice(stateDirectory: URL(fileURLWithPath: state)) }
    }
}

struct DeviceInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a device: a test CA (P-384 root and intermediate, a receipt chain) and an empty key store."
    )

    @Option(name: .long, help: ArgumentHelp("The state folder to create (refused if it holds a device).", valueName: "dir"))
    var state: String

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app: TEAMID.bundle.id.", valueName: "app-id"))
    var appId: String

    @Option(name: .long, help: "development (aaguid appattestdevelop) or production.")
    var environment: AppAttestEnvironment

    @Option(name: .long, help: "Derive the CA's keys from this seed (same keys on every run).")
    var seed: UInt64?

    func validate() throws {
        guard !state.isEmpty else { throw ValidationError("--state: empty path") }
    }

    func run() throws {
        let device = try withDevice {
            try SoftwareDevice.create(at: URL(fileURLWithPath: state), appId: appId, environment: environment, seed: seed)
        }
        print("device created in \(device.stateDirectory.path) for \(device.appId) (\(device.environment.rawValue))")
        print("trust the test roots printed by: trustsuite device ca --state \(state)")
    }
}

struct DeviceCACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Print the test roots (PEM): the attestation root, then the receipt root.",
        discussion: "With --attestation or --receipt, only that one (to save it as a file)."
    )

    @OptionGroup var device: DeviceStateOption

    @Flag(name: .long, help: "Only the attestation root.")
    var attestation = false

    @Flag(name: .long, help: "Only the receipt root.")
    var receipt = false

    func validate() throws {
        if attestation && receipt { throw ValidationError("give --attestation or --receipt, not both") }
    }

    func run() throws {
        let roots = try device.open().testRootsPEM
        if !receipt { print(roots.attestation) }
        if !attestation { print(roots.receipt) }
    }
}

struct DeviceAttestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attest",
        abstract: "Generate a key and attest it, as DCAppAttestService.attestKey does.",
        discussion: """
            Prints the key id, the attestation object, its receipt and the public key (X9.63), base64, \
            one `name: value` per line; with \
            --json, {"keyId", "attestationObject", "clientDataHash", "publicKey"}. The challenge is \
            passed as clientDataHash as given (Apple's samples do this), or hashed with --hash-challenge.
            """
    )

    @OptionGroup var device: DeviceStateOption

    @Option(name: .long, help: ArgumentHelp("The server's challenge, base64.", valueName: "b64"))
    var challenge: String

    @Flag(name: .customLong("hash-challenge"), help: "Pass SHA-256 of the challenge as clientDataHash.")
    var hashChallenge = false

    @Flag(name: .long, help: "Answer in JSON.")
    var json = false

    @Flag(name: .customLong("other-environment"), help: "Failure shape: the other environment's aaguid.")
    var otherEnvironment = false

    @Flag(name: .customLong("expired-certificate"), help: "Failure shape: a credential certificate that expired a day ago.")
    var expiredCertificate = false

    @OptionGroup var launch: DeviceLaunchDataOptions

    func run() throws {
        let device = try device.open()
        guard let challengeBytes = BinaryText.base64(challenge) else { throw CLIError("--challenge is not standard base64") }
        let clientDataHash = hashChallenge ? Array(SHA256.hash(data: challengeBytes)) : challengeBytes
        let options = SoftwareDevice.AttestOptions(otherEnvironment: otherEnvironment, expiredCertificate: expiredCertificate,
                                                   extensions: launch.extensions, validationCategory: launch.validationCategory,
                                                   bundleVersion: launch.bundleVersion)
        let made = try withDevice { try device.attest(clientDataHash: clientDataHash, options: options) }
        if json {
            print(JSONValue.object([
                "keyId": .base64(made.keyId), "attestationObject": .base64(made.attestationObject),
                "clientDataHash": .base64(made.clientDataHash), "publicKey": .base64(made.publicKey),
            ]).jsonText)
        } else {
            print("keyId: \(Data(made.keyId).base64EncodedString())")
            print("attestationObject: \(Data(made.attestationObject).base64EncodedString())")
            print("receipt: \(Data(made.receipt).base64EncodedString())")
            print("publicKey: \(Data(made.publicKey).base64EncodedString())")
        }
    }
}

struct DeviceAssertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assert",
        abstract: "Sign an assertion with the next counter, as generateAssertion does.",
        discussion: """
            clientDataHash is SHA-256 of the file's bytes. The counter is advanced under a lock and \
            saved before the assertion is printed, so concurrent calls never share one. Prints the \
            assertion (base64) and the counter; with --json, {"assertion", "counter"}.
            """
    )

    @OptionGroup var device: DeviceStateOption

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The key id from `device attest`, base64.", valueName: "b64"))
    var keyId: String

    @Option(name: .customLong("client-data"), help: ArgumentHelp("The client data to sign.", valueName: "file"))
    var clientData: String

    @Flag(name: .long, help: "Answer in JSON.")
    var json = false

    @Flag(name: .customLong("replay-counter"), help: "Failure shape: the previous counter again.")
    var replayCounter = false

    @Flag(name: .customLong("foreign-key"), help: "Failure shape: signed by a key from another device.")
    var foreignKey = false

    @OptionGroup var launch: DeviceLaunchDataOptions

    func run() throws {
        let device = try device.open()
        guard let keyIdBytes = BinaryText.base64(keyId) else { throw CLIError("--key-id is not standard base64") }
        let data = try InputFiles.read(clientData, "--client-data", allowEmpty: true)
        let options = SoftwareDevice.AssertOptions(replayCounter: replayCounter, foreignKey: foreignKey, extensions: launch.extensions,
                                                   validationCategory: launch.validationCategory, bundleVersion: launch.bundleVersion)
        let made = try withDevice { try device.assert(keyId: keyIdBytes, clientData: data, options: options) }
        if json {
            print(JSONValue.object(["assertion": .base64(made.assertion), "counter": .int(Int64(made.counter))]).jsonText)
        } else {
            print("assertion: \(Data(made.assertion).base64EncodedString())")
            print("counter: \(made.counter)")
        }
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

struct DeviceTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devicecheck-token",
        abstract: "Print a DeviceCheck device token (base64), as DCDevice.generateToken gives.",
        discussion: """
            A new token on every call; `trustsuite serve devicecheck` finds this device behind each.
            """
    )

    @OptionGroup var device: DeviceStateOption

    func run() throws {
        print(try device.open().deviceCheckToken())
    }
}

extension JSONValue {
    /// Bytes as standard base64 text.
    static func base64(_ bytes: [UInt8]) -> JSONValue { .string(Data(bytes).base64EncodedString()) }
}
