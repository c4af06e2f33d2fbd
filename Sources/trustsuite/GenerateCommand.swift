import AppAttestGenerator
import ArgumentParser
import Foundation

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate vector files.",
        subcommands: [GenerateAppAttestCommand.self]
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
            throw CLIError("generation failed: \(error)")
        }
    }
}
