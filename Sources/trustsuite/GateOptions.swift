import ArgumentParser
import ConformanceKit
import VectorContract

/// What a third party needs to gate its CI on `trustsuite run`
/// (docs/vectors.md, Amendments (round 3)): its known failures, an error map
/// for its library's messages, and SARIF for code scanning.
struct GateOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Known failures, {\"vector id or glob\": \"reason\"}: exit status 0 when every failure is listed, "
                + "1 when one is not or a listed vector now passes (stale entry).", valueName: "file"))
    var expected: String?

    @Option(
        name: .customLong("error-map"),
        help: ArgumentHelp(
            "The adapter's error map, [{\"pattern\": regex, \"code\": code}] (default: error-map.json beside its script): "
                + "a refusal with another code than the vector's is graded wrongReason.", valueName: "file"))
    var errorMap: String?

    @Option(name: .long, help: ArgumentHelp("Write SARIF 2.1.0 to this file (for code scanning).", valueName: "file"))
    var sarif: String?

    @Option(
        name: .customLong("write-expected"),
        help: ArgumentHelp(
            "Write this run's findings (fail, wrong reason, error) to this file as an expected-failures file for --expected: "
                + "{\"vector id\": \"grade: what happened\"}, one per line. Review it before gating on it.", valueName: "file"))
    var writeExpected: String?

    /// The expected-failures file, read before the run starts.
    func expectedFailures() throws -> ExpectedFailures? {
        guard let expected else { return nil }
        do { return try ExpectedFailures.load(expected) } catch { throw CLIError(error.description) }
    }
}
