import Foundation
import Testing
import TestSupport

/// The README's "Testing your server" example, run as written: the bash
/// block after `<!-- example: testing-your-server -->`, in a fresh folder,
/// with the built `trustsuite` first on PATH.
@Suite struct ServerExampleTests {
    static let marker = "<!-- example: testing-your-server -->"

    static func example() throws -> String {
        let readme = try String(contentsOf: Locations.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: marker),
            let open = readme.range(of: "```bash\n", range: start.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex)
        else {
            throw DeviceError("README.md has no bash block after \(marker)")
        }
        return String(readme[open.upperBound..<close.lowerBound])
    }

    /// Processes whose working folder is `folder` (what the example started).
    static func processes(in folder: URL) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/cwd")) == folder.path
        }
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
            "curl and openssl are needed (.ci/run installs them)"))
    func theExampleRunsAsWritten() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try CLI.file("example.sh", Array(try Self.example().utf8), in: folder)
        let path = CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let outcome = try CLI.run(
            ["-c", "cd '\(folder.path)' && PATH='\(path)' exec bash '\(script.path)'"],
            executable: URL(fileURLWithPath: "/bin/bash"), timeout: 300)
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Failed to find bit state"), "\(outcome)")
        #expect(lines.contains { $0.hasPrefix("{") && $0.contains("\"bit0\":true") && $0.contains("\"bit1\":false") }, "\(outcome)")
        #expect(outcome.stdout.contains("valid"), "\(outcome)")
        #expect(Self.processes(in: folder).isEmpty, "the example left a process running")
    }
}
