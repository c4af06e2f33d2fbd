import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// CONTRIBUTING.md's recipes say how many files a family, a fuzz harness and
/// an adapter touch (issue 42: they under-counted). Each recipe's count is
/// its numbered list, and each listed path, with its placeholders filled
/// from the last real addition of its kind, exists in the checkout: a
/// recipe that forgets a file the last addition needed, or names one it did
/// not, fails here.
@Suite struct ContributingRecipeTests {
    /// A recipe's heading, and how its placeholders read for the last real addition.
    struct Recipe: Sendable, CustomStringConvertible {
        let heading: String
        let fill: [(String, String)]
        var description: String { heading }
    }

    static let recipes = [
        Recipe(
            heading: "Adding a vector family",
            fill: [("XFamily", "AppleAPIFamily"), ("XSubject", "AppleAPISubject"), ("/x", "/apple-api")]),
        Recipe(
            heading: "Adding a fuzz harness",
            fill: [("FuzzX", "FuzzSecItemDifferential"), ("XFuzzTarget", "SecItemDifferentialFuzzTarget"), ("/x.dict", "/secitem.dict")]),
        Recipe(heading: "Adding a third-party adapter", fill: [("NAME", "cbor2")]),
    ]

    /// The recipe's stated count and the first path of each numbered item.
    static func read(_ heading: String) throws -> (count: Int, paths: [String]) {
        let text = try String(contentsOf: Checkout.path("CONTRIBUTING.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## \(heading) — "))
        let section = text[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let body = section[..<end]
        let count = try #require(Int(body.prefix { $0.isNumber }), "\(heading): no count in the heading")
        var paths: [String] = []
        for line in body.split(separator: "\n") {
            guard let dot = line.firstIndex(of: "."), Int(line[..<dot]) != nil else { continue }
            let rest = line[line.index(after: dot)...]
            guard let open = rest.firstIndex(of: "`") else { continue }
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "`") else { continue }
            paths.append(String(after[..<close]).components(separatedBy: " ")[0])
        }
        return (count, paths)
    }

    @Test(arguments: recipes)
    func countIsTheList(_ recipe: Recipe) throws {
        let (count, paths) = try Self.read(recipe.heading)
        #expect(count == paths.count, "\(recipe.heading): the heading says \(count) files, the list names \(paths.count)")
        #expect(count > 0)
    }

    @Test(arguments: recipes)
    func everyPathExistsForTheLastAddition(_ recipe: Recipe) throws {
        let (_, paths) = try Self.read(recipe.heading)
        for template in paths {
            var path = template
            for (placeholder, value) in recipe.fill { path = path.replacingOccurrences(of: placeholder, with: value) }
            let url = Checkout.path(path)
            #expect(FileManager.default.fileExists(atPath: url.path), "\(recipe.heading): \(template) → \(path) does not exist")
        }
    }
}
