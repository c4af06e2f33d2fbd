import Foundation
import ArgumentParser
import ConformanceKit
import VectorContract
import TrustSuiteSupport

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the vector families and how many vectors each has."
    )

    @Option(name: .long, help: ArgumentHelp("Also count these vector files or folders (repeatable).", valueName: "path"))
    var fixtures: [String] = []

    @Flag(name: .long, help: "Count only the --fixtures paths.")
    var only = false

    @Flag(name: .long, help: "List every file too.")
    var files = false

    func run() async throws {
        let loaded = try FixtureLocator.load(extra: fixtures, onlyGiven: only, families: []).files
        print("family                   files  vectors  valid  invalid  acceptable")
        for family in Family.allCases {
            let mine = loaded.filter { $0.family == family }
            let vectors = mine.flatMap(\.vectors)
            func count(_ r: ExpectedResult) -> Int { vectors.filter { $0.result == r }.count }
            let name = family.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0)
            print(
                "\(name) \(pad(mine.count, 5))  \(pad(vectors.count, 7))  \(pad(count(.valid), 5))  "
                    + "\(pad(count(.invalid), 7))  \(pad(count(.acceptable), 10))")
            if files {
                for file in mine { print("    \(file.path)  (\(file.vectors.count)) \(file.title)") }
            }
        }
        print("total: \(loaded.flatMap(\.vectors).count) vectors in \(loaded.count) files")
    }

    func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
