import Foundation
import Testing
import TrustSuiteSupport
import VectorContract

/// Which `check` of a test an isolated child answers for (issue 61, item
/// 1): the test, the case's arguments other than its vector, the setup's
/// name, the call site, and how many times this vector was checked there
/// before. The parent starts one child per route, and in the child only the
/// `check` on the same route answers, with its own closure: a test that
/// grades two implementations, or takes the implementation as an argument,
/// has each graded with its own answers.
struct IsolationRoute: Hashable, Sendable, CustomStringConvertible {
    /// The Swift Testing id of the calling test.
    var testID: String
    /// The case's arguments other than ``ConformanceCase`` values (tuples
    /// taken apart), each as Swift Testing describes it.
    var arguments: [String]
    /// ``ConformanceSetup/name``.
    var name: String
    /// `Module/File.swift:LINE:COLUMN` of the `check` call.
    var site: String
    /// Checks of the same vector on the same route before this one (a loop
    /// that grades several implementations at one call site).
    var occurrence: Int

    /// The route without its occurrence, which each side counts.
    var place: IsolationRoute {
        var place = self
        place.occurrence = 0
        return place
    }

    var description: String {
        let given = arguments.isEmpty ? "" : ", arguments (\(arguments.joined(separator: ", ")))"
        let again = occurrence == 0 ? "" : ", check \(occurrence + 1) of its vector there"
        return "test \(testID)\(given), setup \"\(name)\", at \(site)\(again)"
    }

    /// The route as one environment variable's text (a JSON array).
    var encoded: String {
        JSONValue.array([
            .string(testID), .array(arguments.map(JSONValue.string)), .string(name), .string(site), .int(Int64(occurrence)),
        ]).jsonText
    }

    init(testID: String, arguments: [String], name: String, site: String, occurrence: Int = 0) {
        self.testID = testID
        self.arguments = arguments
        self.name = name
        self.site = site
        self.occurrence = occurrence
    }

    init?(encoded text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
            case .array(let parts) = value, parts.count == 5,
            let testID = parts[0].stringValue, case .array(let given) = parts[1],
            let name = parts[2].stringValue, let site = parts[3].stringValue,
            case .int(let count) = parts[4], let occurrence = Int(exactly: count)
        else { return nil }
        let arguments = given.compactMap(\.stringValue)
        guard arguments.count == given.count else { return nil }
        self.init(testID: testID, arguments: arguments, name: name, site: site, occurrence: occurrence)
    }

    /// The calling check's route without its occurrence; nil outside a
    /// Swift Testing test. Fails when the test is parameterized and this
    /// Swift Testing keeps its case's arguments where they cannot be read:
    /// the child could not tell the cases apart.
    static func place(name: String, fileID: String, line: Int, column: Int) -> Result<IsolationRoute, RouteError>? {
        guard let test = Test.current else { return nil }
        let testID = String(describing: test.id)
        let site = "\(fileID):\(line):\(column)"
        var arguments: [String] = []
        if let testCase = Test.Case.current, testCase.isParameterized {
            guard let values = caseArguments(of: testCase) else {
                return .failure(RouteError(testID: testID, site: site))
            }
            arguments = values.flatMap(described)
        }
        return .success(IsolationRoute(testID: testID, arguments: arguments, name: name, site: site))
    }

    /// The values a parameterized case was called with, read by reflection
    /// (Swift Testing declares them for tools only): the `value` of each
    /// element of the case's `arguments`. Nil when they are not found.
    static func caseArguments(of testCase: Test.Case) -> [Any]? {
        guard let list = find(label: "arguments", in: testCase, depth: 0) else { return nil }
        let elements = Mirror(reflecting: list)
        guard elements.displayStyle == .collection else { return nil }
        var values: [Any] = []
        for element in elements.children {
            guard let value = Mirror(reflecting: element.value).children.first(where: { $0.label == "value" })?.value
            else { return nil }
            values.append(value)
        }
        return values
    }

    private static func find(label: String, in value: Any, depth: Int) -> Any? {
        guard depth < 4 else { return nil }
        for child in Mirror(reflecting: value).children {
            if child.label == label { return child.value }
            if let found = find(label: label, in: child.value, depth: depth + 1) { return found }
        }
        return nil
    }

    /// One argument's words: none for a vector, a tuple's parts one by one.
    private static func described(_ value: Any) -> [String] {
        let unwrapped = unwrapOptional(value)
        if unwrapped is ConformanceCase { return [] }
        let mirror = Mirror(reflecting: unwrapped)
        if mirror.displayStyle == .tuple { return mirror.children.flatMap { described($0.value) } }
        return [String(describingForTest: unwrapped)]
    }

    private static func unwrapOptional(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapOptional($0.value) } ?? value
    }
}

/// A check whose route cannot be made: graded `error`, never answered by another closure.
struct RouteError: Error, CustomStringConvertible {
    var testID: String
    var site: String

    var description: String {
        "not run: the isolated process could not tell this case from the test's others (test \(testID), check at \(site)): "
            + "this Swift Testing keeps a case's arguments where TrustSuiteTesting cannot read them, so the child "
            + "might answer with another case's implementation. Use ConformanceSetup(isolation: .inProcess), "
            + "or a test that takes only ConformanceCase arguments"
    }
}
