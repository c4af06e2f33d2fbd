import AppAttest
import AppAttestDevice
import AppAttestExampleServer
import ArgumentParser
import Foundation

/// `trustsuite serve appattest`: the example App Attest server
/// (`AppAttestExampleServer`), for trying the probe and as a model.
struct ServeAppAttestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appattest",
        abstract: "Serve the example App Attest server (challenge, attest, assert; docs/probe.md).",
        discussion: """
            POST /appattest/challenge, /appattest/attest and /appattest/assert, verified with the AppAttest \
            library: challenges single-use (five minutes), keys and counters in --state (written atomically). \
            --anchor names the trust anchor: the device's test root in test mode (`trustsuite device ca --state \
            DIR --attestation`); without it, Apple's App Attestation root. Listens on 127.0.0.1 unless --host \
            says otherwise; --port 0 picks a free port. Prints `listening on http://HOST:PORT` once ready; \
            stops on SIGINT or SIGTERM.
            """
    )

    @Option(name: .long, help: "TCP port (0: any free port).")
    var port: Int

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .customLong("app-id"), help: "The App ID, TEAMID.bundle.id (refused otherwise).")
    var appId: String

    @Option(name: .long, help: "development or production.")
    var environment: AppAttestEnvironment

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Trust anchor, PEM or DER (default: Apple App Attestation Root CA; repeatable).",
            valueName: "file"))
    var anchor: [String] = []

    @Option(name: .long, help: ArgumentHelp("Keep attested keys and counters in this file across restarts.", valueName: "file"))
    var state: String?

    @OptionGroup var launchPolicy: LaunchPolicyOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard AppID.isValid(appId) else { throw ValidationError("--app-id must be \(AppID.rule), got \"\(appId.prefix(100))\"") }
        guard state != "" else { throw ValidationError("--state must not be empty") }
    }

    func run() async throws {
        let server: ExampleServer
        do {
            let anchors = try InputFiles.anchors(anchor) ?? [try AppleRoots.appAttestationRoot]
            server = try ExampleServer(
                .init(
                    host: host, port: port, appId: appId, environment: environment, trustAnchors: anchors,
                    stateFile: state.map { URL(fileURLWithPath: $0) }, launchPolicy: launchPolicy.policy))
        } catch let error as ExampleServerError {
            throw CLIError(error.description)
        }
        let host = host
        do {
            try await server.run { port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        } catch {
            throw CLIError("appattest example server on \(host):\(port): \(error)")
        }
    }
}
