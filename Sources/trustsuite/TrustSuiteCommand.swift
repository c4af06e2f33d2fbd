import ArgumentParser
import ConformanceKit
import VectorContract
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
        subcommands: [
            RunCommand.self, MatrixCommand.self, AdapterCommand.self, ListCommand.self, VerifyCommand.self, InspectCommand.self,
            ACLCommand.self, KeychainCommand.self, RightCommand.self, CBORCommand.self, GenerateCommand.self, DeviceCommand.self,
            ServeCommand.self, ProbeCommand.self,
        ],
        defaultSubcommand: nil
    )

    /// Parses and runs the command. A usage error (unknown option, bad or
    /// missing value) prints one `trustsuite: …` line and exits 2, as every
    /// other refusal does; help and version print and exit 0.
    static func main() async {
        let arguments = NegativeNumbers.attach(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
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
            Console.fail("\(NegativeNumbers.explain(message)) (see --help)")
        }
    }
}

/// A negative number after an option (`--seed -1`): the argument parser
/// takes `-1` for an option name and reported "Missing value for
/// '--seed <seed>'" (issue 41). It is attached to its option (`--seed=-1`)
/// before parsing, so the option's own check refuses it and says why.
enum NegativeNumbers {
    /// `-1`, `-0.5`, `-.5`, `-1e3`, `-inf`, `-nan`: never an option name.
    static func isNegativeNumber(_ text: String) -> Bool {
        text.wholeMatch(of: /-(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-(inf|infinity|nan)/.ignoresCase()) != nil
    }

    /// `arguments` with each negative number that follows a `--name` joined to it;
    /// nothing after a `--` terminator changes.
    static func attach(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for argument in arguments {
            if isNegativeNumber(argument), let last = result.last, last.hasPrefix("--"), last.count > 2, !last.contains("="),
                !result.contains("--")
            {
                result[result.count - 1] = last + "=" + argument
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// The parser's "The value '-1' is invalid for '--seed <seed>'" with the reason.
    static func explain(_ message: String) -> String {
        guard let match = message.firstMatch(of: /The value '([^']*)' is invalid for '([^']*)'/),
            isNegativeNumber(String(match.1))
        else { return message }
        return "\(match.2): \(match.1) is negative; it takes a number of 0 or more"
    }
}
