import AdapterHost
import Foundation

/// Starts processes that die with the test process (issue 44, item 8): a
/// runner a test started, orphaned when the test process crashed, kept its
/// hung adapter alive. Each process runs under `setpriv --pdeathsig KILL`,
/// spawned from one thread that lives as long as the test process (the
/// parent-death signal fires when the spawning thread exits, and Dispatch's
/// worker threads exit when idle). Without `setpriv`, the process starts as
/// it is.
public enum TiedProcess {
    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `process` (configured, not started) tied to the test process.
    public static func run(_ process: Process) throws {
        if let setpriv, let executable = process.executableURL {
            process.arguments = ["--pdeathsig", "KILL", "--", executable.path] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: setpriv)
        }
        try OffPool.spawner.runAndWait { try process.run() }
    }
}
