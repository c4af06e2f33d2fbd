import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// docs/architecture.md's module map is the manifest's: the arrows between
/// the package's own targets, as `swift package dump-package` reports them.
/// And the two test doubles a server team links stay free of the runner, the
/// subjects and the generator (issue 24).
@Suite struct ArchitectureTests {
    /// Each non-test target of the manifest with its dependencies on the package's own targets
    /// (test support: TestSupport, and StrictCBORFrozen, the oracle copy of StrictCBOR).
    static func manifestMap() throws -> [String: [String]] {
        let targets = try dumpedTargets()
        let ours = Set(targets.compactMap { $0["name"]?.stringValue })
        var map: [String: [String]] = [:]
        for target in targets where target["type"]?.stringValue != "test" {
            guard let name = target["name"]?.stringValue, name != "TestSupport", name != "StrictCBORFrozen" else { continue }
            map[name] = (target["dependencies"]?.arrayValue ?? []).compactMap { dependency in
                let named = dependency["byName"]?.arrayValue?.first ?? dependency["target"]?.arrayValue?.first
                return named?.stringValue.flatMap { ours.contains($0) ? $0 : nil }
            }
        }
        return map
    }

    /// The manifest's targets as `swift package dump-package` reports them.
    static func dumpedTargets() throws -> [JSONValue] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A scratch path of its own: the package's .build may be locked by the running `swift test`.
        // With the optional libcbor oracle on (TRUSTSUITE_LIBCBOR=1), so the map holds its arrow too.
        let (status, data) = try Processes.output([
            "TRUSTSUITE_LIBCBOR=1", "swift", "package", "--package-path", Checkout.root.path,
            "--scratch-path", scratch.path, "dump-package",
        ])
        try #require(status == 0, "swift package dump-package failed")
        let dump = try JSONDecoder().decode(JSONValue.self, from: data)
        return dump["targets"]?.arrayValue ?? []
    }

    /// The block after `<!-- module-map … -->` in docs/architecture.md: `NAME → A, B` per line.
    static func documentedMap() throws -> [String: [String]] {
        let text = try String(contentsOf: Checkout.path("docs", "architecture.md"), encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- module-map"))
        let rest = text[marker.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        var map: [String: [String]] = [:]
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let parts = line.components(separatedBy: "→")
            try #require(parts.count == 2, "not NAME → DEPENDENCIES: \(line)")
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let list = parts[1].trimmingCharacters(in: .whitespaces)
            map[name] = list == "(nothing of ours)" ? [] : list.components(separatedBy: ", ")
        }
        return map
    }

    @Test func documentedModuleMapIsTheManifests() throws {
        let manifest = try Self.manifestMap()
        let documented = try Self.documentedMap()
        #expect(Set(documented.keys) == Set(manifest.keys))
        for (name, dependencies) in manifest.sorted(by: { $0.key < $1.key }) {
            #expect(
                Set(documented[name] ?? []) == Set(dependencies), "\(name): documented \(documented[name] ?? []), manifest \(dependencies)")
        }
    }

    /// Everything `name` reaches through the package's own targets.
    static func reach(_ name: String, in map: [String: [String]]) -> Set<String> {
        var seen = Set<String>()
        var work = map[name] ?? []
        while let next = work.popLast() {
            if seen.insert(next).inserted { work += map[next] ?? [] }
        }
        return seen
    }

    @Test(arguments: ["DeviceCheckService", "AppAttestDevice"])
    func testDoublesDependOnNothingOfTheRunner(_ name: String) throws {
        let reached = Self.reach(name, in: try Self.manifestMap())
        #expect(
            reached.isDisjoint(with: ["ConformanceKit", "AdapterHost", "VectorContract", "ReferenceSubjects", "AppAttestGenerator"]),
            "\(name) reaches \(reached.sorted())")
    }

    /// The probe borrows nothing (issue 42): it reaches the contract (notes)
    /// and the reports, never the runner, the adapter host or the generator.
    @Test func probeReachesNeitherTheRunnerNorTheGenerator() throws {
        let reached = Self.reach("AppAttestProbe", in: try Self.manifestMap())
        #expect(reached.isSuperset(of: ["ConformanceReports", "VectorContract"]), "\(reached.sorted())")
        #expect(
            reached.isDisjoint(with: ["ConformanceKit", "AdapterHost", "AppAttestGenerator", "ReferenceSubjects", "CProcessControl"]),
            "AppAttestProbe reaches \(reached.sorted())")
    }

    /// One job per room: the contract and the reports reach no process
    /// handling, the runner reaches no adapter process, and DeviceCheck's
    /// model is not App Attest's.
    @Test(arguments: [
        ("VectorContract", ["AdapterHost", "CProcessControl", "ConformanceKit", "ConformanceReports"]),
        ("ConformanceReports", ["AdapterHost", "CProcessControl", "ConformanceKit", "VectorContract"]),
        ("ConformanceKit", ["AdapterHost", "CProcessControl"]),
        ("DeviceCheckModel", ["AppAttest", "StrictCBOR"]),
        ("DeviceCheckService", ["AppAttest"]),
    ])
    func roomsKeepToTheirJob(_ name: String, forbidden: [String]) throws {
        let reached = Self.reach(name, in: try Self.manifestMap())
        #expect(reached.isDisjoint(with: forbidden), "\(name) reaches \(reached.sorted())")
    }

    /// No source file of the contract or the reports spawns, signals or
    /// waits for a process: that is the adapter host's job alone.
    @Test(arguments: ["VectorContract", "ConformanceReports", "ConformanceKit"])
    func noProcessHandlingOutsideTheHost(_ module: String) throws {
        let folder = Checkout.path("Sources", module)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let markers = [
            "import Glibc", "import Darwin", "import CProcessControl", "posix_spawn", "waitpid", "kill(", "Process()", "fork(",
        ]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for marker in markers { #expect(!text.contains(marker), "\(module)/\(file) holds \(marker)") }
        }
    }

    @Test func supportDependsOnNothingOfOurs() throws {
        #expect(try Self.manifestMap()["TrustSuiteSupport"] == [])
    }

    // MARK: The map, checked (issue 50, item 5)

    /// The modules `text` imports (`import X`, `@testable import X`,
    /// `package import X`, `import struct X.Y`, …) or names in `#if canImport(X)`.
    static func imports(in text: String) -> Set<String> {
        var modules = Set<String>()
        for line in text.split(separator: "\n") {
            if let open = line.range(of: "canImport("), let close = line[open.upperBound...].firstIndex(of: ")") {
                modules.insert(String(line[open.upperBound..<close]))
            }
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count > 1 else { continue }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
            let path = kinds.contains(words[1]) && words.count > 2 ? words[2] : words[1]
            if let module = path.split(separator: ".").first { modules.insert(String(module)) }
        }
        return modules
    }

    /// The Swift files of a dumped target: its `path`, else Sources/NAME or Tests/NAME.
    static func swiftFiles(of target: JSONValue) throws -> [URL] {
        let name = target["name"]?.stringValue ?? ""
        let folder =
            target["path"]?.stringValue ?? (target["type"]?.stringValue == "test" ? "Tests/\(name)" : "Sources/\(name)")
        let root = Checkout.root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { root.appendingPathComponent($0) }
    }

    /// The rows of the table after `<!-- MARKER` in docs/architecture.md, as their cells.
    static func documentedTable(_ marker: String) throws -> [[String]] {
        let text = try String(contentsOf: Checkout.path("docs", "architecture.md"), encoding: .utf8)
        let start = try #require(text.range(of: "<!-- \(marker)"))
        var rows: [[String]] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(cells)
        }
        // The header and its rule.
        return Array(rows.dropFirst(2))
    }

    /// Every dependency a target declares — one of ours or another
    /// package's product — is imported by one of its Swift files, except
    /// the arrows docs/architecture.md lists as declared ahead of their use.
    @Test func everyDeclaredDependencyIsImported() throws {
        let exceptions = Set(try Self.documentedTable("declared-not-imported").map { "\($0[0]) → \($0[1])" })
        var unused: [String] = []
        var checked = 0
        for target in try Self.dumpedTargets() {
            let name = target["name"]?.stringValue ?? ""
            let files = try Self.swiftFiles(of: target)
            guard !files.isEmpty else { continue }  // C targets and module maps
            var imported = Set<String>()
            for file in files { imported.formUnion(Self.imports(in: try String(contentsOf: file, encoding: .utf8))) }
            for dependency in target["dependencies"]?.arrayValue ?? [] {
                let named =
                    dependency["byName"]?.arrayValue?.first ?? dependency["target"]?.arrayValue?.first
                    ?? dependency["product"]?.arrayValue?.first
                guard let module = named?.stringValue else { continue }
                checked += 1
                if !imported.contains(module) { unused.append("\(name) → \(module)") }
            }
        }
        #expect(checked > 100, "\(checked) dependencies checked")
        #expect(Set(unused) == exceptions, "declared, imported by no file of the target: \(unused.sorted())")
    }

    /// docs/architecture.md's layout names every folder of Sources/.
    @Test func layoutNamesEveryFolderOfSources() throws {
        let text = try String(contentsOf: Checkout.path("docs", "architecture.md"), encoding: .utf8)
        let layout = try #require(text.range(of: "## Layout"))
        let named = Set(
            text[layout.upperBound...].split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("Sources/") else { return nil }
                return line.dropFirst("Sources/".count).split(separator: "/").first.map(String.init)
            })
        let folders = try FileManager.default.contentsOfDirectory(atPath: Checkout.path("Sources").path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: Checkout.path("Sources", name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }
        #expect(folders.count > 20)
        #expect(Set(folders).subtracting(named).isEmpty, "not in the layout: \(Set(folders).subtracting(named).sorted())")
        #expect(named.subtracting(folders).isEmpty, "in the layout, not in Sources/: \(named.subtracting(folders).sorted())")
    }

    /// Every `@unchecked Sendable` of Sources/ is in docs/architecture.md's
    /// list with its file and a reason, and the list has no other entry.
    @Test func uncheckedSendablesAreTheDocumentedOnes() throws {
        let sources = Checkout.path("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: [String] = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("@unchecked Sendable") {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                let words = code.split(whereSeparator: { " :<{".contains($0) })
                let kind = words.firstIndex { ["class", "struct", "enum", "actor", "extension"].contains($0) }
                let type = kind.flatMap { $0 + 1 < words.count ? String(words[$0 + 1]) : nil } ?? code
                found.append("Sources/\(file) \(type)")
            }
        }
        let rows = try Self.documentedTable("unchecked-sendable")
        for row in rows { #expect(row.count == 3 && !row[2].isEmpty, "an entry without its reason: \(row)") }
        let listed = rows.map { "\($0[0]) \($0.count > 1 ? $0[1] : "")" }
        #expect(found.count == listed.count, "\(found.count) in Sources/, \(listed.count) listed")
        #expect(found.sorted() == listed.sorted(), "in Sources/: \(found.sorted())\nlisted: \(listed.sorted())")
        let text = try String(contentsOf: Checkout.path("docs", "architecture.md"), encoding: .utf8)
        #expect(text.contains("(\(found.count) today)"), "docs/architecture.md should give the count, \(found.count)")
    }

    /// Apple's SecItem strings exist once (issue 48, item 3): written in
    /// KeychainModel's `SecName` (or the enum it takes them from), and
    /// neither the engine nor the `Security` module spells one of them as a
    /// literal of its own. A copy that drifts from the other is the bug
    /// this rules out; a raw-value enum case is where a string is defined.
    @Test func applesKeyNamesExistOnce() throws {
        let table = try String(contentsOf: Checkout.path("Sources", "KeychainModel", "SecName.swift"), encoding: .utf8)
        var names: Set<String> = []
        for line in table.split(separator: "\n") {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard code.hasPrefix("public static let "), let open = code.firstIndex(of: "\""),
                let close = code[code.index(after: open)...].firstIndex(of: "\"")
            else { continue }
            names.insert(String(code[code.index(after: open)..<close]))
        }
        #expect(names.count > 100, "SecName.swift should define Apple's strings; found \(names.count)")
        var copies: [String] = []
        for module in ["KeychainModel", "Security"] {
            let folder = Checkout.path("Sources", module)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            for file in files where file != "SecName.swift" {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") || code.hasPrefix("case ") && code.contains(" = \"") { continue }
                    for literal in Self.stringLiterals(in: code) where names.contains(literal) {
                        copies.append("\(module)/\(file):\(number + 1) \"\(literal)\"")
                    }
                }
            }
        }
        #expect(copies.isEmpty, "Apple's strings spelled again outside SecName: \(copies)")
    }

    /// The plain string literals of a line of Swift (escaped quotes skipped).
    static func stringLiterals(in line: String) -> [String] {
        var literals: [String] = []
        var current: String?
        var escaped = false
        for character in line {
            if escaped {
                escaped = false
                current?.append(character)
            } else if character == "\\" {
                escaped = true
                current?.append(character)
            } else if character == "\"" {
                if let text = current { literals.append(text) }
                current = current == nil ? "" : nil
            } else {
                current?.append(character)
            }
        }
        return literals
    }
}
