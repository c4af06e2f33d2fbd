import AppAttestDevice
import ArgumentParser
import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport

struct DeviceAssertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assert",
        abstract: "Sign an assertion with the next counter, as generateAssertion does.",
        discussion: """
            clientDataHash is SHA-256 of the file's bytes. The counter is advanced under a lock and \
            saved before the assertion is printed, so concurrent calls never share one. Prints the \
            assertion (base64) and the counter; with --json, {"assertion", "counter"}. The failure \
            shapes (docs/probe.md, The checks) combine; --flags and the launch data give the iOS 27 shapes, \
            --platform macos the macOS 27 one.
            """
    )

    @OptionGroup var device: DeviceStateOption

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The key id from `device attest`, base64.", valueName: "b64"))
    var keyId: String

    @Option(name: .customLong("client-data"), help: ArgumentHelp("The client data to sign.", valueName: "file"))
    var clientData: String

    @Flag(name: .long, help: "Answer in JSON.")
    var json = false

    @Flag(name: .customLong("replay-counter"), help: "Failure shape: the previous counter again (counterNotIncreasing).")
    var replayCounter = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Sign with this counter instead of the next: at or below the stored one is refused (counterNotIncreasing); the stored counter becomes the larger.",
            valueName: "n"))
    var counter: UInt32?

    @Flag(name: .customLong("foreign-key"), help: "Failure shape: signed by a key from another device (signatureInvalid).")
    var foreignKey = false

    @Flag(
        name: .customLong("prehashed-nonce"),
        help: "Failure shape: the nonce signed as a pre-hashed digest, not hashed by ES256 (signatureInvalid).")
    var prehashedNonce = false

    @OptionGroup var otherApp: DeviceOtherAppOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The flags byte, 0x00-0xFF or 0-255 (default 0x40, as real assertions; iOS 27 devices send 0xC0 with the map: accepted).",
            valueName: "byte"), transform: DeviceAssertCommand.flagsByte)
    var flags: UInt8 = 0x40

    @OptionGroup var launch: DeviceLaunchDataOptions

    /// `0x..` hexadecimal or decimal, one byte.
    static func flagsByte(_ text: String) throws -> UInt8 {
        let lower = text.lowercased()
        let value = lower.hasPrefix("0x") ? UInt8(lower.dropFirst(2), radix: 16) : UInt8(lower, radix: 10)
        guard let value else { throw ValidationError("--flags must be one byte: 0x00-0xFF or 0-255, not \(text)") }
        return value
    }

    func validate() throws {
        if replayCounter && counter != nil { throw ValidationError("give --replay-counter or --counter, not both") }
    }

    func run() throws {
        let device = try device.open()
        guard let keyIdBytes = BinaryText.base64(keyId) else { throw CLIError("--key-id is not standard base64") }
        let data = try InputFiles.read(clientData, "--client-data", allowEmpty: true)
        let options = SoftwareDevice.AssertOptions(
            replayCounter: replayCounter, foreignKey: foreignKey, extensions: launch.extensions,
            validationCategory: launch.validationCategory, bundleVersion: launch.bundleVersion, counter: counter,
            prehashedNonce: prehashedNonce, otherAppId: otherApp.otherAppId, flags: flags, platform: launch.platform,
            codeDirectoryHash: launch.codeDirectoryHash, omitCodeDirectoryHash: launch.noCodeDirectoryHash)
        let made = try withDevice { try device.assert(keyId: keyIdBytes, clientData: data, options: options) }
        if json {
            print(JSONValue.object(["assertion": .base64(made.assertion), "counter": .int(Int64(made.counter))]).jsonText)
        } else {
            print("assertion: \(Data(made.assertion).base64EncodedString())")
            print("counter: \(made.counter)")
        }
    }
}
