import ArgumentParser
import ConformanceKit
import TrustSuiteSupport
import Foundation

@main
struct TrustSuiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trustsuite",
        abstract: "Conformance and fuzz test suite for Apple's device-trust primitives.",
        discussion: """
            Runs golden vectors (trustsuite-vectors/1) against the reference implementation \
            and prints a scorecard. Start with `trustsuite run`; `trustsuite list` shows what there is.
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, MatrixCommand.self, AdapterCommand.self, ListCommand.self, VerifyCommand.self, InspectCommand.self, ACLCommand.self, KeychainCommand.self, RightCommand.self, CBORCommand.self, GenerateCommand.self, DeviceCommand.self, ServeCommand.self, ProbeCommand.self],
        defaultSubcommand: nil
    )

    /// Parses and runs the command. A usage error (unknown option, bad or
    /// missing value) prints one `trustsuite: …` line and exits 2, as every
    /// other refusal does; help and version print and exit 0.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as CLIError {
            Console.fail(error.description, status: error.status)
        } catch let error as VectorLoadError {
            Console.fail("bad vector file \(error.description)")
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            // One line: the parser's message with its line breaks folded.
            let message = message(for: error)
                .replacingOccurrences(of: "Error: ", with: "")
                .split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            Console.fail("\(message) (see --help)")
        }
    }
}
