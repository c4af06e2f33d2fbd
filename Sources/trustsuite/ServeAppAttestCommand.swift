import AppAttest
import AppAttestDevice
import AppAttestExampleServer
import ArgumentParser
import Foundation
import ServiceGuards

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
            stops on SIGINT or SIGTERM. Connections idle, sending headers or sending a body for longer than \
            their timeout are closed; past --max-connections open at once, a new connection gets 503 and is \
            closed. With --state, the server holds a lock on FILE.lock (FILE the state's real path, symbolic \
            links resolved) while it runs: a second server on the same state refuses to start (exit 2).

            --flaw NAME switches on a deliberate bug, so the probe shows what a failing report looks like \
            (docs/probe.md, See a failing report; repeatable; never for a real deployment). The names: \
            \(ExampleServerFlaw.named.map { "\($0.name) (\($0.what))" }.joined(separator: "; ")); \
            skip-attestation-step:CODE and skip-assertion-step:CODE (that verification step skipped; CODE an \
            AppAttest error code, e.g. rpIdMismatch, certificateChainInvalid, counterNotIncreasing).
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

    @OptionGroup var connections: ConnectionOptions

    @OptionGroup var launchPolicy: LaunchPolicyOptions

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp(
            "Switch on a deliberate bug (repeatable; the names are listed above).", valueName: "name"))
    var flaw: [String] = []

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard AppID.isValid(appId) else { throw ValidationError("--app-id must be \(AppID.rule), got \"\(appId.prefix(100))\"") }
        guard state != "" else { throw ValidationError("--state must not be empty") }
        try connections.validate()
        _ = try flaws()
    }

    /// The flaws --flaw names; an unknown name is a usage error (exit 2) naming the closest and every name.
    func flaws() throws -> Set<ExampleServerFlaw> {
        var found: Set<ExampleServerFlaw> = []
        for name in flaw {
            guard let parsed = ExampleServerFlaw(name: name) else {
                let names = ExampleServerFlaw.helpNames
                let closest = names.min { EditDistance.between($0, name) < EditDistance.between($1, name) }
                let hint = closest.map { EditDistance.between($0, name) <= 3 ? " (did you mean \($0)?)" : "" } ?? ""
                throw ValidationError(
                    "--flaw \"\(name.prefix(100))\" is not a flaw of the example server\(hint); the names: \(names.joined(separator: ", "))"
                )
            }
            found.insert(parsed)
        }
        return found
    }

    func run() async throws {
        let server: ExampleServer
        let flaws = try flaws()
        do {
            let anchors = try InputFiles.anchors(anchor) ?? [try AppleRoots.appAttestationRoot]
            var configuration = ExampleServer.Configuration(
                host: host, port: port, appId: appId, environment: environment, trustAnchors: anchors,
                stateFile: state.map { URL(fileURLWithPath: $0) }, launchPolicy: launchPolicy.policy)
            configuration.flaws = flaws
            configuration.timeouts = connections.timeouts
            server = try ExampleServer(configuration)
        } catch let error as ExampleServerError {
            throw CLIError(error.description)
        }
        let host = host
        if !flaws.isEmpty {
            // On stderr, so no one mistakes this server for a correct one.
            Console.note("deliberately broken (--flaw): \(flaws.map(\.name).sorted().joined(separator: ", "))")
        }
        do {
            try await server.run { port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        } catch {
            throw CLIError("appattest example server on \(host):\(port): \(error)")
        }
    }
}
