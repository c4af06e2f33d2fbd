import Testing

@testable import TrustSuiteTesting

/// The lines a crash's account quotes (issue 61, item 7): the ones that
/// explain the death, not the child's test-start lines, which its other
/// cases print around the trap (the old choice, the last three lines, gave
/// only those here).
@Suite struct CrashAccountTests {
    static let stderr = """
        ◇ Test cbor(_:) started.
        Swift/Array.swift:430: Fatal error: Array index is out of range
        Current stack trace:
        0    libswiftCore.so                    0x00007f0c9e1c5d5a <unavailable> + 1234
        ◇ Test cbor(_:) started.
        ✔ Test aCheckElsewhere() passed after 0.001 seconds.
        ↳ cbor/strict-decoding.json tcId 68: unsupported
        ◇ Test cbor(_:) started.

        """

    @Test func theTrapIsQuotedNotTheTestLines() {
        let quoted = IsolatedChild.lastLines(of: Self.stderr)
        #expect(quoted == "Swift/Array.swift:430: Fatal error: Array index is out of range", "\(quoted)")
    }

    /// Without a line that explains the death, the last lines that say something, events left out.
    @Test func otherwiseTheLastLinesOfTheImplementation() {
        let quoted = IsolatedChild.lastLines(of: "◇ Test a() started.\ndecoding 9f…\nstill decoding\n✔ Test b() passed.\n")
        #expect(quoted == "decoding 9f… | still decoding", "\(quoted)")
    }
}
