import AppAttestGenerator
import ArgumentParser
import Foundation
import TrustSuiteSupport

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate vector files.",
        subcommands: [GenerateAppAttestCommand.self, GenerateRealAppAttestCommand.self]
    )
}

struct GenerateAppAttestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-attest",
        abstract: "Generate the app-attest and devicecheck vectors from a synthetic Apple-shaped PKI.",
        discussion: """
            Keys derive from --seed, so the PKI is the same for a seed; ECDSA signatures are \
            randomized, so signature bytes differ between runs. Expected verdicts come from the \
            mutation catalog, not from a verifier.
            """
    )

    @Option(name: .long, help: "Seed for the test PKI's keys.")
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Folder to write the vector files to.", valueName: "folder"))
    var out: String = "Fixtures/app-attest"

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out: empty path") }
    }

    func run() throws {
        do {
            let written = try AppAttestGenerator.generate(seed: seed, into: URL(fileURLWithPath: out))
            for (name, count) in written { print("\(out)/\(name): \(count) vectors") }
        } catch {
            throw CLIError("generation failed: \(FileErrorText.describe(error))")
        }
    }
}

struct GenerateRealAppAttestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "real-app-attest",
        abstract: "Generate the real-root App Attest vectors (Fixtures/real/) from the external real-device data.",
        discussion: """
            Reads app-attest/ of the external conformance folder (--external, else \
            TRUSTSUITE_EXTERNAL_VECTORS, else ../shared/vectors beside the checkout): Apple's sample \
            attestations and veehaitch's attestations, assertions and receipts. No signature is made, \
            so the output is the same on every run. The files keep their sources' licences (not CC0).
            """
    )

    @Option(name: .long, help: ArgumentHelp("The external conformance folder (holding app-attest/).", valueName: "folder"))
    var external: String?

    @Option(name: .long, help: ArgumentHelp("Folder to write the vector files to.", valueName: "folder"))
    var out: String = "Fixtures/real"

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out: empty path") }
        guard external?.isEmpty != true else { throw ValidationError("--external: empty path") }
    }

    /// --external, else `TRUSTSUITE_EXTERNAL_VECTORS`, else `../shared/vectors` beside the checkout.
    var externalFolder: URL {
        if let external { return URL(fileURLWithPath: external) }
        if let path = ProcessInfo.processInfo.environment["TRUSTSUITE_EXTERNAL_VECTORS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return Checkout.root.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }

    func run() throws {
        do {
            let written = try RealRootVectors.generate(external: externalFolder, into: URL(fileURLWithPath: out))
            for (name, count) in written { print("\(out)/\(name): \(count) vectors") }
        } catch {
            throw CLIError("generation failed (\(externalFolder.path)): \(FileErrorText.describe(error))")
        }
    }
}
