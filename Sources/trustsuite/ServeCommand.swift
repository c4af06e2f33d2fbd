import ArgumentParser
import DeviceCheckService
import Foundation
import ServiceGuards
import Synchronization

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local stand-in for an Apple service.",
        subcommands: [ServeDeviceCheckCommand.self, DeveloperTokenCommand.self, ServeAppAttestCommand.self]
    )
}

struct ServeDeviceCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devicecheck",
        abstract: "Serve DeviceCheck's two-bit API locally (validate_device_token, query_two_bits, update_two_bits).",
        discussion: """
            Requests need `Authorization: Bearer <ES256 JWT>` whose kid is a --key, whose iss is \
            --team and whose iat is within the last hour, as Apple's service does; else 401. \
            Bodies and answers follow docs/models/app-attest.md (DeviceCheck two bits). Listens on \
            127.0.0.1 unless --host says otherwise; --port 0 picks a free port. Prints one line, \
            `listening on http://HOST:PORT`, once ready; stops on SIGINT or SIGTERM (requests still \
            running after --shutdown-grace are cut). Connections idle, sending headers or sending a body \
            for longer than their timeout are closed; past --max-connections open at once, a new connection \
            gets 503 and is closed. With --state, the bits survive restarts: FILE holds \
            a snapshot and FILE.journal one line per acknowledged update (synced before the answer), \
            folded into the snapshot as it grows; the service holds a lock on FILE.lock while it runs, so a \
            second service on the same --state refuses to start (exit 2; the kernel releases the lock when \
            the service ends, however it ends), whatever name or symbolic link reaches the file (the lock \
            is named by its real path). A --state that is not a regular file, or whose folder \
            does not exist, refuses the start.
            """
    )

    @Option(name: .long, help: "TCP port (0: any free port).")
    var port: Int

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Keep the bits in this file across restarts.", valueName: "file"))
    var state: String?

    @Option(name: .long, help: "The developer team id (the tokens' iss).")
    var team: String

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp(
            "A team key: KEYID=FILE, FILE a PEM public key or the .p8 private key. Repeatable.",
            valueName: "keyid=file"))
    var key: [String] = []

    @OptionGroup var connections: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("After SIGTERM/SIGINT, cut requests still running after this long.", valueName: "seconds"))
    var shutdownGrace = 5.0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard state != "" else { throw ValidationError("--state must not be empty") }
        try connections.validate(also: [("--shutdown-grace", shutdownGrace)])
        guard !team.isEmpty else { throw ValidationError("--team must not be empty") }
        guard !key.isEmpty else { throw ValidationError("give at least one --key KEYID=FILE") }
    }

    func run() async throws {
        let service: DeviceCheckService
        do {
            let keys = try key.map(DeveloperKey.init(argument:))
            var configuration = DeviceCheckService.Configuration(
                host: host, port: port, team: team, keys: keys, stateFile: state.map { URL(fileURLWithPath: $0) })
            configuration.timeouts = connections.timeouts
            configuration.shutdownGrace = .seconds(shutdownGrace)
            service = try await DeviceCheckService(configuration)
        } catch let error as DeviceCheckServiceError {
            throw CLIError(error.description)
        }
        let host = host
        // The port the service bound (with --port 0, not the 0 given), for the
        // fail-stop line: a script running several services needs to know which stopped.
        let bound = BoundPort(port)
        do {
            try await service.run { port in
                bound.set(port)
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        } catch {
            throw CLIError("devicecheck service on \(host):\(bound.get()): \(error)")
        }
    }
}

/// The connection limits of `serve devicecheck` and `serve appattest`
/// (`ConnectionTimeouts`): idle, header and body deadlines, and the cap.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Close a connection that starts no request for this long.", valueName: "seconds"))
    var idleTimeout = 30.0

    @Option(name: .long, help: ArgumentHelp("Close a connection whose request headers take longer.", valueName: "seconds"))
    var headerTimeout = 10.0

    @Option(name: .long, help: ArgumentHelp("Close a connection whose request body takes longer.", valueName: "seconds"))
    var bodyTimeout = 10.0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Most connections open at once; one more gets 503 and is closed (default: half the descriptor limit, at most 1024).",
            valueName: "n"))
    var maxConnections = ConnectionTimeouts.defaultMaxConnections

    /// Longest accepted for any time limit (a day).
    static let maxSeconds = 86_400.0
    /// Most connections accepted for --max-connections.
    static let maxConnectionsLimit = 1_000_000

    func validate() throws { try validate(also: []) }

    /// Checks these limits and `others` (more time limits of the command).
    func validate(also others: [(String, Double)]) throws {
        for (name, value) in [("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout)]
            + others
        {
            guard value.isFinite, value > 0, value <= Self.maxSeconds else {
                throw ValidationError("\(name) must be more than 0 and at most \(Int(Self.maxSeconds)) seconds")
            }
        }
        guard (1...Self.maxConnectionsLimit).contains(maxConnections) else {
            throw ValidationError("--max-connections must be 1 to \(Self.maxConnectionsLimit)")
        }
    }

    var timeouts: ConnectionTimeouts {
        var timeouts = ConnectionTimeouts()
        timeouts.idle = .seconds(idleTimeout)
        timeouts.header = .seconds(headerTimeout)
        timeouts.body = .seconds(bodyTimeout)
        timeouts.maxConnections = maxConnections
        return timeouts
    }
}

/// The port a service reported once listening (set from the server's task).
final class BoundPort: Sendable {
    private let port: Mutex<Int>
    init(_ port: Int) { self.port = Mutex(port) }
    func set(_ value: Int) { port.withLock { $0 = value } }
    func get() -> Int { port.withLock { $0 } }
}

struct DeveloperTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "developer-token",
        abstract: "Print a DeviceCheck developer token (ES256 JWT: kid, iss = team, iat = now) for curl and scripts.",
        discussion: "Valid for an hour at Apple's service and at `trustsuite serve devicecheck`."
    )

    @Option(name: .long, help: "The developer team id.")
    var team: String

    @Option(name: .long, help: ArgumentHelp("The team key: KEYID=FILE, FILE the .p8 private key.", valueName: "keyid=file"))
    var key: String

    func run() async throws {
        do {
            let (keyId, privateKey) = try DeveloperKey.privateKey(argument: key)
            print(try await DeveloperTokens.make(team: team, keyId: keyId, key: privateKey))
        } catch let error as DeviceCheckServiceError {
            throw CLIError(error.description)
        }
    }
}
