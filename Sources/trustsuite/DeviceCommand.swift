import AppAttest
import AppAttestDevice
import ArgumentParser
import ConformanceKit
import VectorContract
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
        subcommands: [
            DeviceInitCommand.self, DeviceCACommand.self, DeviceAttestCommand.self, DeviceAssertCommand.self,
            DeviceTokenCommand.self,
        ]
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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The state folder to create (refused if it holds a device, or if its parent folder does not exist).", valueName: "dir"))
    var state: String

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app: TEAMID.bundle.id.", valueName: "app-id"))
    var appId: String

    @Option(name: .long, help: "development (aaguid appattestdevelop) or production.")
    var environment: AppAttestEnvironment

    @Option(name: .long, help: "Derive the CA's keys from this seed (same keys on every run).")
    var seed: UInt64?

    func validate() throws {
        guard !state.isEmpty else { throw ValidationError("--state: empty path") }
        guard AppID.isValid(appId) else { throw ValidationError("--app-id must be \(AppID.rule), got \"\(appId.prefix(100))\"") }
    }

    func run() throws {
        let url = URL(fileURLWithPath: state)
        try Self.checkParent(of: url)
        let device = try withDevice {
            try SoftwareDevice.create(at: url, appId: appId, environment: environment, seed: seed)
        }
        print("device created in \(device.stateDirectory.path) for \(device.appId) (\(device.environment.rawValue))")
        print("trust the test roots printed by: trustsuite device ca --state \(state)")
    }
}

extension DeviceInitCommand {
    /// `device init` makes the state folder itself, never its parents: a
    /// mistyped `--state /tmp/devcie/phone` is refused rather than growing a
    /// tree of folders (holding the CA's private keys) somewhere unexpected,
    /// as `mkdir` without `-p` refuses. Issue 41.
    static func checkParent(of url: URL) throws {
        let parent = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) else {
            throw CLIError(
                "--state \(url.path): the folder \(parent) does not exist (device init creates only the state folder itself; "
                    + "create its parent first)")
        }
        guard isDirectory.boolValue else { throw CLIError("--state \(url.path): \(parent) is not a folder") }
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
