import Foundation

/// Live processes, for tests that check nothing outlives a run.
public enum Processes {
    /// Processes whose command line mentions `marker` (zombies have none).
    public static func mentioning(_ marker: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(marker) ? "\(pid): \(line)" : nil
        }
    }
}
