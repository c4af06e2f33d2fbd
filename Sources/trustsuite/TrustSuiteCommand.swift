import ArgumentParser

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
        subcommands: [RunCommand.self, ListCommand.self, VerifyCommand.self, InspectCommand.self, ACLCommand.self, KeychainCommand.self, RightCommand.self, CBORCommand.self, GenerateCommand.self],
        defaultSubcommand: nil
    )
}
