/// The one JUnit XML writer (`run`, `matrix` and the probe): one testsuite
/// per group of findings, one testcase per finding, in the order given.
public struct JUnitReport: Sendable {
    public struct Suite: Sendable {
        public let name: String
        public let findings: [Finding]

        public init(name: String, findings: [Finding]) {
            self.name = name
            self.findings = findings
        }
    }

    /// The `testsuites` element's name (`trustsuite`, `trustsuite-probe`).
    public let name: String
    public let seconds: Double
    public let suites: [Suite]
    /// Name and value pairs every suite carries as `<properties>` (the run's vectors).
    public let properties: [(String, String)]

    public init(name: String, seconds: Double, suites: [Suite], properties: [(String, String)] = []) {
        self.name = name
        self.seconds = seconds
        self.suites = suites
        self.properties = properties
    }

    public var xml: String {
        let all = suites.flatMap(\.findings)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"\(XMLText.attribute(name))\" tests=\"\(all.count)\" \(Self.counts(all)) time=\"\(seconds)\">\n"
        for suite in suites {
            xml +=
                "  <testsuite name=\"\(XMLText.attribute(suite.name))\" tests=\"\(suite.findings.count)\" "
                + "\(Self.counts(suite.findings))>\n"
            if !properties.isEmpty {
                xml += "    <properties>\n"
                for (name, value) in properties {
                    xml += "      <property name=\"\(XMLText.attribute(name))\" value=\"\(XMLText.attribute(value))\"/>\n"
                }
                xml += "    </properties>\n"
            }
            for finding in suite.findings { xml += Self.testcase(finding) }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    static func counts(_ findings: [Finding]) -> String {
        func count(_ outcome: Finding.Outcome) -> Int { findings.filter { $0.outcome == outcome }.count }
        return "failures=\"\(count(.failure))\" errors=\"\(count(.error))\" skipped=\"\(count(.skipped))\""
    }

    static func testcase(_ finding: Finding) -> String {
        var xml =
            "    <testcase classname=\"\(XMLText.attribute(finding.group))\" name=\"\(XMLText.attribute(finding.title))\" "
        if let file = finding.file { xml += "file=\"\(XMLText.attribute(file))\" " }
        xml += "time=\"\(finding.seconds)\""
        if finding.outcome == .pass && finding.stderr == nil { return xml + "/>\n" }
        xml += ">\n"
        let type = finding.kind.map { " type=\"\(XMLText.attribute($0))\"" } ?? ""
        let message = "message=\"\(XMLText.attribute(finding.message))\""
        let element: String? =
            switch finding.outcome {
            case .pass: nil
            case .failure: "failure"
            case .error: "error"
            case .skipped: "skipped"
            }
        if let element {
            if let detail = finding.detail {
                xml += "      <\(element)\(type) \(message)>\(XMLText.text(detail))</\(element)>\n"
            } else {
                xml += "      <\(element)\(type) \(message)/>\n"
            }
        }
        if let stderr = finding.stderr { xml += "      <system-err>\(XMLText.text(stderr))</system-err>\n" }
        xml += "    </testcase>\n"
        return xml
    }
}
