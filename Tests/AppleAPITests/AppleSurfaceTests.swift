import Foundation
import Testing

/// Issue 57: the public symbol graphs of `Security`, `LocalAuthentication` and
/// `DeviceCheck`, as `swift-symbolgraph-extract` reads them from the built
/// modules, against Apple's iPhoneOS 26.1 SDK surface (the facts in
/// `Tests/AppleAPITests/Surface/*.tsv`; docs/apple-api.md, "Surface").
///
/// (a) every public symbol here is Apple's, with Apple's declaration once
/// both are normalized (`SurfaceDeclaration`); (b) every Apple symbol of a
/// type or header declared here is here, or listed in `Surface/absent.tsv`
/// with a reason, and no line of that list is stale; (c) docs/apple-api.md
/// holds the coverage table these counts make (`TRUSTSUITE_WRITE_SURFACE=1`
/// writes it). `SecuritySimulation` is not Apple's and is not compared.
@Suite struct AppleSurfaceTests {
    static let modules = ["Security", "LocalAuthentication", "DeviceCheck"]

    @Test("every public symbol is Apple's, with Apple's declaration", arguments: AppleSurfaceTests.modules)
    func everyPublicSymbolIsApples(module: String) throws {
        let comparison = try SurfaceComparison.of(module)
        let extra = comparison.extra.map { "  \($0.path)\n      here:  \($0.declarations.joined(separator: "\n      here:  "))" }
        #expect(
            comparison.extra.isEmpty,
            "\(module): \(extra.count) public symbols that Apple's surface lacks:\n\(extra.joined(separator: "\n"))")
        let differing = comparison.differing.map {
            "  \($0.path)\n      here:  \($0.ours)\n      apple: \($0.apple.joined(separator: "\n      apple: "))"
        }
        #expect(
            comparison.differing.isEmpty,
            "\(module): \(differing.count) declarations that are not Apple's:\n\(differing.joined(separator: "\n"))")
    }

    @Test("every Apple symbol of a declared type or header is here or absent with a reason", arguments: AppleSurfaceTests.modules)
    func everyAbsenceHasAReason(module: String) throws {
        let comparison = try SurfaceComparison.of(module)
        let absent = try SurfaceFacts.absences()
        let unlisted = comparison.missing.filter { absent[$0.path] == nil }.map { "  [\($0.group)] \($0.path)" }
        #expect(
            unlisted.isEmpty,
            "\(module): \(unlisted.count) Apple symbols of declared types and headers, neither here nor in Surface/absent.tsv:\n\(unlisted.joined(separator: "\n"))"
        )
    }

    @Test("Surface/absent.tsv lists only Apple symbols the project lacks")
    func noAbsenceIsStale() throws {
        let comparisons = try Self.modules.map { try SurfaceComparison.of($0) }
        let ours = comparisons.reduce(into: Set<String>()) { $0.formUnion($1.ourPaths) }
        let apples = comparisons.reduce(into: Set<String>()) { $0.formUnion($1.applePaths) }
        let absent = try SurfaceFacts.absences()
        let provided = absent.keys.filter { ours.contains($0) }.sorted()
        let unknown = absent.keys.filter { !apples.contains($0) }.sorted()
        #expect(
            provided.isEmpty,
            "Surface/absent.tsv lists symbols the project now provides; remove them:\n  \(provided.joined(separator: "\n  "))")
        #expect(unknown.isEmpty, "Surface/absent.tsv lists names that are not Apple's:\n  \(unknown.joined(separator: "\n  "))")
    }

    @Test("docs/apple-api.md holds the current coverage table")
    func coverageTableIsCurrent() throws {
        var rows = ["| Module | Type or header | Apple | Here | Absent |", "|---|---|---:|---:|---:|"]
        let absent = try SurfaceFacts.absences()
        for module in Self.modules {
            for row in try SurfaceComparison.of(module).coverage(absent: absent) {
                rows.append("| \(module) | \(row.group) | \(row.apple) | \(row.here) | \(row.absent) |")
            }
        }
        let table = rows.joined(separator: "\n")
        let docs = SurfaceFacts.checkout.appendingPathComponent("docs/apple-api.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- surface:begin -->"), "docs/apple-api.md has no <!-- surface:begin --> marker")
        let end = try #require(
            text.range(of: "<!-- surface:end -->", range: begin.upperBound..<text.endIndex),
            "docs/apple-api.md has no <!-- surface:end --> marker")
        let documented = text[begin.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        if ProcessInfo.processInfo.environment["TRUSTSUITE_WRITE_SURFACE"] == "1" {
            let written = text.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: "\n" + table + "\n")
            try written.write(to: docs, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            documented == table,
            "the coverage table between the surface markers of docs/apple-api.md is not the current one; run with TRUSTSUITE_WRITE_SURFACE=1 to write it:\n\(table)"
        )
    }
}

/// A failure of the surface machinery itself (no extractor, no built modules, a malformed line).
struct SurfaceFailure: Error, CustomStringConvertible, Sendable {
    let description: String
}

/// The committed facts: Apple's symbols per module, and the absences with their reasons.
enum SurfaceFacts {
    /// The checkout: this file is `Tests/AppleAPITests/AppleSurfaceTests.swift`.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let folder = checkout.appendingPathComponent("Tests/AppleAPITests/Surface")

    /// One line of `Surface/<Module>.tsv`: kind, path, declaration (as Apple prints it), group, origin.
    struct Line: Sendable {
        let kind: String
        let path: String
        let declaration: String
        let group: String
    }

    static func lines(of module: String) throws -> [Line] {
        try rows(of: "\(module).tsv", fields: 5).map { Line(kind: $0[0], path: $0[1], declaration: $0[2], group: $0[3]) }
    }

    /// `Surface/absent.tsv`: path → reason.
    static func absences() throws -> [String: String] {
        var absent: [String: String] = [:]
        for row in try rows(of: "absent.tsv", fields: 2) {
            guard !row[1].isEmpty else { throw SurfaceFailure(description: "absent.tsv: \(row[0]) has no reason") }
            absent[row[0]] = row[1]
        }
        return absent
    }

    static func rows(of file: String, fields: Int) throws -> [[String]] {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        var rows: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            let row = line.split(separator: "\t", maxSplits: fields - 1, omittingEmptySubsequences: false).map(String.init)
            guard row.count == fields else { throw SurfaceFailure(description: "\(file): not \(fields) fields: \(line)") }
            rows.append(row)
        }
        return rows
    }
}

/// This project's public surface: `swift-symbolgraph-extract` on the built modules, once per run.
enum OurSurface {
    struct Symbol: Sendable {
        let kind: String
        let path: String
        let declaration: String
    }

    /// A conformance (`conformsTo`) or superclass (`inheritsFrom`) of a type.
    struct Relationship: Sendable {
        let kind: String
        let type: String
        let name: String
    }

    struct Module: Sendable {
        let symbols: [Symbol]
        let relationships: [Relationship]
    }

    /// Protocols every type has, which Apple's facts leave out.
    static let markerProtocols: Set<String> = ["Copyable", "Escapable", "SendableMetatype", "BitwiseCopyable"]

    static let extracted: Result<[String: Module], SurfaceFailure> = {
        do { return .success(try extract(AppleSurfaceTests.modules)) } catch let failure as SurfaceFailure {
            return .failure(failure)
        } catch { return .failure(SurfaceFailure(description: "\(error)")) }
    }()

    static func module(_ name: String) throws -> Module {
        let modules = try extracted.get()
        guard let module = modules[name] else { throw SurfaceFailure(description: "no symbol graph for \(name)") }
        return module
    }

    static func extract(_ names: [String]) throws -> [String: Module] {
        let extractor = try extractorPath()
        let modules = try modulesFolder()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        var result: [String: Module] = [:]
        for name in names {
            try run(
                extractor,
                [
                    "-module-name", name, "-I", modules.path, "-target", targetTriple(modules), "-output-dir", output.path,
                    "-minimum-access-level", "public",
                ])
            let data = try Data(contentsOf: output.appendingPathComponent("\(name).symbols.json"))
            result[name] = try parse(data, module: name)
        }
        return result
    }

    /// `TRUSTSUITE_SYMBOLGRAPH_EXTRACT`, else `swift-symbolgraph-extract` beside the `swift` on PATH.
    static func extractorPath() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TRUSTSUITE_SYMBOLGRAPH_EXTRACT"], !path.isEmpty { return path }
        let manager = FileManager.default
        for directory in (environment["PATH"] ?? "").split(separator: ":").map(String.init) where !directory.isEmpty {
            let swift = URL(fileURLWithPath: directory).appendingPathComponent("swift")
            guard manager.isExecutableFile(atPath: swift.path) else { continue }
            for folder in [swift.deletingLastPathComponent(), swift.resolvingSymlinksInPath().deletingLastPathComponent()] {
                let candidate = folder.appendingPathComponent("swift-symbolgraph-extract")
                if manager.isExecutableFile(atPath: candidate.path) { return candidate.path }
            }
        }
        throw SurfaceFailure(
            description: "no swift-symbolgraph-extract beside the swift on PATH: set TRUSTSUITE_SYMBOLGRAPH_EXTRACT to the toolchain's")
    }

    /// `TRUSTSUITE_SURFACE_MODULES`, else the `Modules` folder beside the test binary
    /// (`.build/<triple>/debug/<Package>PackageTests.xctest`, modules in `.build/<triple>/debug/Modules`).
    static func modulesFolder() throws -> URL {
        let manager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["TRUSTSUITE_SURFACE_MODULES"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var binaries: [URL] = []
        if let first = ProcessInfo.processInfo.arguments.first { binaries.append(URL(fileURLWithPath: first)) }
        if let executable = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            binaries.append(URL(fileURLWithPath: executable))
        }
        for binary in binaries {
            var folder = binary.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let modules = folder.appendingPathComponent("Modules")
                if manager.fileExists(atPath: modules.appendingPathComponent("Security.swiftmodule").path) { return modules }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw SurfaceFailure(
            description:
                "no built Security.swiftmodule in a Modules folder beside the test binary (\(binaries.map(\.path))): set TRUSTSUITE_SURFACE_MODULES"
        )
    }

    /// The triple of `.build/<triple>/debug/Modules`, else this machine's.
    static func targetTriple(_ modules: URL) -> String {
        let folder = modules.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        if folder.split(separator: "-").count >= 3 { return folder }
        #if arch(arm64)
        return "aarch64-unknown-linux-gnu"
        #else
        return "x86_64-unknown-linux-gnu"
        #endif
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SurfaceFailure(
                description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                    + (String(data: message, encoding: .utf8) ?? ""))
        }
    }

    static func parse(_ data: Data, module: String) throws -> Module {
        guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let symbols = graph["symbols"] as? [[String: Any]], let relationships = graph["relationships"] as? [[String: Any]]
        else { throw SurfaceFailure(description: "\(module).symbols.json is not a symbol graph") }
        var paths: [String: String] = [:]
        var parsed: [Symbol] = []
        for symbol in symbols {
            guard let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String,
                let components = symbol["pathComponents"] as? [String],
                let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String
            else { throw SurfaceFailure(description: "\(module).symbols.json: a symbol without kind, path or identifier") }
            let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
            let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
            let path = components.joined(separator: ".")
            paths[precise] = path
            parsed.append(Symbol(kind: kind, path: path, declaration: declaration))
        }
        var related: [Relationship] = []
        for relationship in relationships {
            guard let kind = relationship["kind"] as? String, kind == "conformsTo" || kind == "inheritsFrom",
                let source = relationship["source"] as? String, let type = paths[source],
                let target = relationship["target"] as? String
            else { continue }
            let fallback = (relationship["targetFallback"] as? String ?? target).split(separator: ".").last.map(String.init) ?? target
            let name = paths[target] ?? fallback
            guard !markerProtocols.contains(name) else { continue }
            related.append(Relationship(kind: kind, type: type, name: name))
        }
        return Module(symbols: parsed, relationships: related)
    }
}

/// One declaration as both sides are compared: whitespace collapsed, tokens a
/// caller never sees dropped (`nonisolated(unsafe)`, `final`, `override`,
/// `dynamic`, `@objc`, and `@discardableResult`, which clang-imported
/// functions and methods carry without Apple's graph printing it), `let` read
/// as `var … { get }`, runs of attributes sorted, parameter names reduced to
/// their argument labels (`_` for operators), and `Self` spelled as the type
/// where the two are the same for a caller (structs, enums, Core Foundation
/// classes). Argument labels, types, optionality, `async`/`throws`,
/// `@escaping` and `@Sendable` stay.
enum SurfaceDeclaration {
    static let dropped: Set<String> = ["nonisolated(unsafe)", "final", "override", "dynamic", "@objc", "@discardableResult"]
    static let callable: Set<String> = [
        "swift.func", "swift.method", "swift.init", "swift.type.method", "swift.func.op", "swift.subscript", "swift.type.subscript",
    ]
    static let property: Set<String> = ["swift.var", "swift.property", "swift.type.property"]

    static func normalize(kind: String, path: String, declaration: String, selfTypes: Set<String>) -> String {
        var tokens = declaration.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            .filter { !dropped.contains($0) }
        if property.contains(kind) {
            let at = tokens.first == "static" || tokens.first == "class" ? 1 : 0
            if tokens.count > at + 1, tokens[at] == "let", tokens[at + 1].hasSuffix(":") {
                tokens[at] = "var"
                tokens += ["{", "get", "}"]
            }
        }
        var index = 0
        while index < tokens.count {
            guard tokens[index].hasPrefix("@") else {
                index += 1
                continue
            }
            var end = index
            while end < tokens.count, tokens[end].hasPrefix("@") { end += 1 }
            tokens.replaceSubrange(index..<end, with: tokens[index..<end].sorted())
            index = end
        }
        var result = tokens.joined(separator: " ")
        let components = SurfacePath.components(path)
        if callable.contains(kind) {
            let isOperator = !(components.last?.first.map { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "`") } ?? false)
            result = strippingParameterNames(result, isOperator: isOperator)
        }
        if let owner = SurfacePath.parent(path), selfTypes.contains(owner) { result = replacingSelf(result, with: owner) }
        return result
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
    }

    static func replacingSelf(_ text: String, with owner: String) -> String {
        var result = ""
        var word = ""
        for character in text {
            if isWordCharacter(character) {
                word.append(character)
                continue
            }
            result += word == "Self" ? owner : word
            word = ""
            result.append(character)
        }
        result += word == "Self" ? owner : word
        return result
    }

    /// `(label name: T, …)` of the first `func`, `init` or `subscript` as `(label: T, …)`.
    static func strippingParameterNames(_ text: String, isOperator: Bool) -> String {
        let characters = Array(text)
        var keywordEnd: Int?
        var index = 0
        while index < characters.count, keywordEnd == nil {
            guard isWordCharacter(characters[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
            if ["func", "init", "subscript"].contains(String(characters[index..<end])) { keywordEnd = end }
            index = end
        }
        guard let keywordEnd, let open = characters[keywordEnd...].firstIndex(of: "("),
            let close = matchingParenthesis(characters, from: open)
        else { return text }
        let inner = String(characters[(open + 1)..<close])
        guard !inner.trimmingCharacters(in: .whitespaces).isEmpty else { return text }
        let parameters = splitTopLevel(inner).map { parameter -> String in
            let trimmed = parameter.trimmingCharacters(in: .whitespaces)
            let parts = Array(trimmed)
            var depth = 0
            var colon: Int?
            for (position, character) in parts.enumerated() {
                if "([<".contains(character) {
                    depth += 1
                } else if ")]>".contains(character) {
                    depth -= 1
                } else if character == ":", depth == 0 {
                    colon = position
                    break
                }
            }
            guard let colon else { return trimmed }
            let names = String(parts[..<colon]).split(separator: " ").map(String.init)
            let type = String(parts[(colon + 1)...]).trimmingCharacters(in: .whitespaces)
            let label = isOperator ? "_" : (names.first ?? "_")
            return "\(label): \(type)"
        }
        return String(characters[...open]) + parameters.joined(separator: ", ") + String(characters[close...])
    }

    /// The `)` closing the `(` at `start`, over `(` and `[` nesting, `->` skipped.
    static func matchingParenthesis(_ characters: [Character], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < characters.count {
            if characters[index] == "-", index + 1 < characters.count, characters[index + 1] == ">" {
                index += 2
                continue
            }
            if "([".contains(characters[index]) {
                depth += 1
            } else if ")]".contains(characters[index]) {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    /// `text` split at commas outside `()`, `[]` and `<>` (a `->` is no bracket).
    static func splitTopLevel(_ text: String) -> [String] {
        let characters = Array(text)
        var parts: [String] = []
        var current = ""
        var depth = 0
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "-", index + 1 < characters.count, characters[index + 1] == ">" {
                current += "->"
                index += 2
                continue
            }
            if "([<".contains(character) {
                depth += 1
            } else if ")]>".contains(character) {
                depth -= 1
            }
            if character == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index += 1
        }
        parts.append(current)
        return parts
    }
}

/// Symbol paths: `LAError.Code.~=(_:_:)` is `LAError`, `Code`, `~=(_:_:)`.
enum SurfacePath {
    static func components(_ path: String) -> [String] {
        var components: [String] = []
        var current = ""
        var depth = 0
        for character in path {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ".", depth == 0, let last = current.last, !"!=<>~".contains(last) {
                components.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        components.append(current)
        return components
    }

    static func parent(_ path: String) -> String? {
        let parts = components(path)
        return parts.count > 1 ? parts.dropLast().joined(separator: ".") : nil
    }

    static func top(_ path: String) -> String { components(path).first ?? path }
}

/// One module's comparison: what is here and not Apple's, what differs, what is missing.
struct SurfaceComparison: Sendable {
    struct Extra: Sendable {
        let path: String
        let declarations: [String]
    }

    struct Differing: Sendable {
        let path: String
        let ours: String
        let apple: [String]
    }

    struct Missing: Sendable {
        let group: String
        let path: String
    }

    struct CoverageRow: Sendable {
        let group: String
        let apple: Int
        let here: Int
        let absent: Int
    }

    let extra: [Extra]
    let differing: [Differing]
    let missing: [Missing]
    /// Every Apple path (symbols, and `Type : Protocol` / `Type (superclass S)` relationships).
    let applePaths: Set<String>
    /// Every path of ours in the same form.
    let ourPaths: Set<String>
    let appleGroups: [String: String]
    let declaredGroups: Set<String>
    let ourSymbolPaths: Set<String>

    static func relationshipKey(_ kind: String, _ type: String, _ name: String) -> String {
        kind == "conformsTo" ? "\(type) : \(name)" : "\(type) (superclass \(name))"
    }

    static func typeOfKey(_ key: String) -> String { key.split(separator: " ").first.map(String.init) ?? key }

    static func of(_ module: String) throws -> SurfaceComparison {
        try SurfaceComparison(module: module, apple: SurfaceFacts.lines(of: module), ours: OurSurface.module(module))
    }

    init(module: String, apple: [SurfaceFacts.Line], ours: OurSurface.Module) {
        let reexported = Set(apple.filter { $0.kind == "reexport" }.map(\.path))
        let symbols = apple.filter { $0.kind.hasPrefix("swift.") }
        var kinds: [String: String] = [:]
        for line in symbols { kinds[line.path] = line.kind }
        var selfTypes = Set(kinds.filter { $0.value == "swift.struct" || $0.value == "swift.enum" }.map(\.key))
        if module == "Security" { selfTypes.formUnion(kinds.filter { $0.value == "swift.class" }.map(\.key)) }
        var appleDeclarations: [String: Set<String>] = [:]
        var groups: [String: String] = [:]
        var implied: [String: String] = [:]
        for line in symbols {
            appleDeclarations[line.path, default: []].insert(
                SurfaceDeclaration.normalize(kind: line.kind, path: line.path, declaration: line.declaration, selfTypes: selfTypes))
            groups[line.path] = line.group
            // A RawRepresentable import's rawValue: implied by Apple's init(rawValue:), absent from its graph.
            if SurfacePath.components(line.path).last == "init(rawValue:)", let owner = SurfacePath.parent(line.path),
                let start = line.declaration.range(of: "rawValue: "),
                let close = line.declaration[start.upperBound...].firstIndex(of: ")")
            {
                let path = owner + ".rawValue"
                implied[path] = SurfaceDeclaration.normalize(
                    kind: "swift.property", path: path, declaration: "var rawValue: \(line.declaration[start.upperBound..<close]) { get }",
                    selfTypes: selfTypes)
            }
        }
        var appleRelationships: [String: String] = [:]
        for line in apple where line.kind == "conformsTo" || line.kind == "inheritsFrom" {
            appleRelationships[Self.relationshipKey(line.kind, line.path, line.declaration)] = line.group
        }
        let appleTypes = Set(
            kinds.filter { ["swift.class", "swift.struct", "swift.enum", "swift.protocol"].contains($0.value) }.map(\.key))

        var ourDeclarations: [String: Set<String>] = [:]
        var ourKinds: [String: String] = [:]
        for symbol in ours.symbols where !reexported.contains(symbol.path) && !reexported.contains(SurfacePath.top(symbol.path)) {
            ourDeclarations[symbol.path, default: []].insert(
                SurfaceDeclaration.normalize(kind: symbol.kind, path: symbol.path, declaration: symbol.declaration, selfTypes: selfTypes))
            ourKinds[symbol.path] = symbol.kind
        }
        var extra: [Extra] = []
        var differing: [Differing] = []
        var declared = Set<String>()
        for path in ourDeclarations.keys.sorted() {
            let mine = ourDeclarations[path] ?? []
            if let theirs = appleDeclarations[path] {
                declared.insert(groups[path] ?? path)
                for declaration in mine.subtracting(theirs).sorted() {
                    differing.append(Differing(path: path, ours: declaration, apple: theirs.sorted()))
                }
            } else if let theirs = implied[path] {
                declared.insert(SurfacePath.top(path))
                for declaration in mine.subtracting([theirs]).sorted() {
                    differing.append(Differing(path: path, ours: declaration, apple: [theirs + "  (implied by init(rawValue:))"]))
                }
            } else {
                extra.append(Extra(path: path, declarations: mine.sorted()))
                declared.insert(SurfacePath.top(path))
            }
        }
        var ourRelationships = Set<String>()
        for relationship in ours.relationships where !reexported.contains(SurfacePath.top(relationship.type)) {
            ourRelationships.insert(Self.relationshipKey(relationship.kind, relationship.type, relationship.name))
        }
        let ourTypes = Set(
            ourKinds.filter { ["swift.class", "swift.struct", "swift.enum", "swift.protocol"].contains($0.value) }.map(\.key))
        for key in ourRelationships.sorted() where appleRelationships[key] == nil && appleTypes.contains(Self.typeOfKey(key)) {
            let type = Self.typeOfKey(key)
            if key.contains("(superclass") {
                let theirs = appleRelationships.keys.filter { $0.hasPrefix(type + " (superclass") }.sorted()
                differing.append(Differing(path: key, ours: key, apple: theirs.isEmpty ? ["no superclass"] : theirs))
            } else {
                extra.append(Extra(path: key, declarations: ["conformance"]))
            }
        }
        var missing: [Missing] = []
        for path in appleDeclarations.keys.sorted() {
            guard let group = groups[path], declared.contains(group), ourDeclarations[path] == nil else { continue }
            missing.append(Missing(group: group, path: path))
        }
        for (key, group) in appleRelationships.sorted(by: { $0.key < $1.key }) {
            let type = Self.typeOfKey(key)
            guard ourTypes.contains(type), !ourRelationships.contains(key) else { continue }
            if key.contains("(superclass"), ourRelationships.contains(where: { $0.hasPrefix(type + " (superclass") }) { continue }
            missing.append(Missing(group: group, path: key))
        }
        self.extra = extra
        self.differing = differing
        self.missing = missing
        self.applePaths = Set(appleDeclarations.keys).union(appleRelationships.keys)
        self.ourPaths = Set(ourDeclarations.keys).union(ourRelationships)
        self.appleGroups = groups
        self.declaredGroups = declared
        self.ourSymbolPaths = Set(ourDeclarations.keys)
    }

    /// Per declared type or header: Apple's symbols, those here, those listed absent; then the rest, in one row.
    func coverage(absent: [String: String]) -> [CoverageRow] {
        var rows: [CoverageRow] = []
        for group in declaredGroups.sorted() {
            let paths = appleGroups.filter { $0.value == group }.map(\.key)
            guard !paths.isEmpty else { continue }
            rows.append(
                CoverageRow(
                    group: group, apple: paths.count, here: paths.filter { ourSymbolPaths.contains($0) }.count,
                    absent: paths.filter { absent[$0] != nil }.count))
        }
        let others = Set(appleGroups.values).subtracting(declaredGroups)
        if !others.isEmpty {
            rows.append(
                CoverageRow(
                    group: "\(others.count) other types and headers, none declared here",
                    apple: appleGroups.values.filter { others.contains($0) }.count, here: 0, absent: 0))
        }
        return rows
    }
}
