import ConformanceKit
import Foundation

/// Where the project's own vectors live and how files are gathered for a run.
enum FixtureLocator {
    /// `TRUSTSUITE_FIXTURES`, else `./Fixtures`, else the Fixtures folder of
    /// the source checkout this binary was built from.
    static func defaultFolder() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TRUSTSUITE_FIXTURES"], !path.isEmpty { return path }
        let local = FileManager.default.currentDirectoryPath + "/Fixtures"
        if FileManager.default.fileExists(atPath: local) { return "Fixtures" }
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
        return FileManager.default.fileExists(atPath: checkout) ? checkout : nil
    }

    /// Loads the built-in fixtures (unless `onlyGiven`) plus the given paths,
    /// keeping the vectors of `families` (all when empty).
    static func load(extra: [String], onlyGiven: Bool, families: [Family]) throws -> [VectorFile] {
        var paths: [String] = []
        if !onlyGiven {
            guard let folder = defaultFolder() else {
                throw CLIError("cannot find the Fixtures folder: run from the project root, "
                               + "set TRUSTSUITE_FIXTURES, or pass --only with --fixtures PATH")
            }
            paths.append(folder)
        }
        paths += extra
        guard !paths.isEmpty else { throw CLIError("no vector files given (--only needs --fixtures PATH)") }
        let files = try VectorLoader.load(paths: paths)
        return families.isEmpty ? files : files.filter { families.contains($0.family) }
    }
}

/// A usage or environment problem: printed as one line, exit status 2.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
