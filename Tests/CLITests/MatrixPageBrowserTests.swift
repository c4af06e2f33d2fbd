import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The matrix's HTML page as a person sees it: opened in headless Chromium
/// (Debian's `chromium`, installed by .ci/run), its script run, and the
/// rendered document read back (issue 28, item 3).
@Suite struct MatrixPageBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The page after its script ran: `chromium --headless --dump-dom`, in a
    /// profile folder of its own that the test checks no process still uses.
    static func rendered(_ page: URL, fragment: String, profile: URL) throws -> Document {
        let browser = try #require(chromium)
        let outcome = try CLI.run(
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                "--dump-dom", page.absoluteString + fragment,
            ],
            executable: URL(fileURLWithPath: browser), timeout: 90)
        #expect(outcome.status == 0, "chromium: \(outcome.stderr.suffix(500))")
        return Document(text: outcome.stdout)
    }

    @Test func theGridAndAFilterRenderInABrowser() throws {
        guard Self.chromium != nil else {
            // CI installs chromium; elsewhere the page is still checked as text by RunAndMatrixCommandTests.
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "chromium is missing: .ci/run installs it")
            return
        }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A cbor decoder that accepts everything, listed with its language and version.
        let script =
            "import sys, json\nprint(json.dumps({'adapter': 'yes', 'version': '1', 'families': ['cbor']}), flush=True)\n"
            + "for l in sys.stdin: print(json.dumps({'id': json.loads(l)['id'], 'result': 'valid'}), flush=True)\n"
        try Data(script.utf8).write(to: folder.appendingPathComponent("yes.py"))
        let entry: JSONValue = .object([
            "name": .string("yes"), "language": .string("Python"), "library": .string("accept-all"),
            "version": .string("1"), "command": .string("python3 yes.py"), "families": .array([.string("cbor")]),
        ])
        let list = folder.appendingPathComponent("adapters.json")
        try Data(JSONValue.object(["schema": .string("trustsuite-adapters/1"), "adapters": .array([entry])]).jsonText.utf8).write(to: list)
        let page = folder.appendingPathComponent("m.html")
        let outcome = try CLI.run([
            "matrix", "--family", "cbor", "--family", "keychain-acl", "--quiet", "--adapters", list.path,
            "--html", page.path,
        ])
        #expect(outcome.status == 0, "\(outcome)")

        let cbor = FixtureVectors.cases(.cbor), acl = FixtureVectors.cases(.keychainACL)
        let profile = folder.appendingPathComponent("profile")
        let all = try Self.rendered(page, fragment: "", profile: profile)
        // The grid: the reference passes every cbor mode and the acl family;
        // the accept-everything decoder's cbor cells count its accepted
        // invalid vectors, and its acl cell is blank (it claims no acl).
        let modes = Dictionary(grouping: cbor, by: { $0.vector.part ?? "" })
        for (mode, cases) in modes {
            let invalid = cases.filter { $0.vector.result == .invalid }.count
            let reference = "data-label=\"cbor \(mode)\" data-accepted-invalid=\"0\"><a href=\"#impl-0\">\(cases.count)/\(cases.count)</a>"
            let lenient =
                "data-label=\"cbor \(mode)\" data-accepted-invalid=\"\(invalid)\"><a href=\"#impl-1\">"
                + "\(cases.count - invalid)/\(cases.count)<small>\(invalid) accepted invalid</small></a>"
            #expect(all.holds(reference), "reference cell for cbor \(mode)")
            #expect(all.holds(lenient), "yes cell for cbor \(mode)")
        }
        #expect(all.holds("<td class=\"cell unclaimed\" data-label=\"keychain-acl\"></td>"), "blank acl cell for yes")
        #expect(all.holds("<td>Python</td><td>accept-all 1</td>"), "the list's language and version")
        #expect(Self.shown(all) == "\(cbor.count + acl.count) of \(cbor.count + acl.count) vectors")
        #expect(Self.hidden(all) == 0)

        // The filter, set from the address's fragment, hides every cbor row.
        let filtered = try Self.rendered(page, fragment: "#family=keychain-acl", profile: profile)
        #expect(Self.shown(filtered) == "\(acl.count) of \(cbor.count + acl.count) vectors")
        #expect(Self.hidden(filtered) == cbor.count)
        #expect(!filtered.holds("data-family=\"keychain-acl\" data-disagree=\"0\" style=\"display: none;\""), "an acl row hidden")
        #expect(Processes.mentioning(profile.path).isEmpty, "a browser process outlived its run")
    }

    /// A rendered document, shown in a failed expectation by its size only
    /// (the whole page would bury the message).
    struct Document: CustomTestStringConvertible {
        let text: String
        var testDescription: String { "a document of \(text.utf8.count) bytes" }
        func holds(_ part: String) -> Bool { text.contains(part) }
    }

    /// The count line the script writes under the filters.
    static func shown(_ document: Document) -> String? {
        let document = document.text
        guard let start = document.range(of: "<span id=\"shown\">"),
            let end = document[start.upperBound...].range(of: "</span>")
        else { return nil }
        return String(document[start.upperBound..<end.lowerBound])
    }

    /// Vector rows the script hid.
    static func hidden(_ document: Document) -> Int {
        document.text.components(separatedBy: "style=\"display: none;\"").count - 1
    }
}
