import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TrustSuiteSupport

/// What an adapter sends is bounded before it reaches a report (issue 44
/// item 5): 256 KiB error texts made a 189 MB HTML page; now each reply keeps
/// at most 4 KiB of error text, and a graded answer at most 64 KiB of output.
@Suite struct BoundedReportTests {
    @Test func longTextIsCutWithTheCutMarked() {
        let text = String(repeating: "é", count: 300_000)  // 600,000 UTF-8 bytes
        let cut = BoundedText.cut(text)
        #expect(cut.utf8.count < BoundedText.reportLimit + 64)
        #expect(cut.hasSuffix("… [cut: \(600_000 - BoundedText.reportLimit) more bytes]"))
        #expect(BoundedText.cut("short") == "short")
    }

    @Test func anAdapterReplyKeepsABoundedError() {
        let error = String(repeating: "x", count: 256 * 1024)
        let line = #"{"id": "7", "result": "invalid", "error": "\#(error)", "code": "\#(error)"}"#
        guard case .answer(let answer) = AdapterReply.read(line, id: 7, firstIdOfProcess: 1) else {
            Issue.record("the reply was not read as an answer")
            return
        }
        #expect((answer.error?.utf8.count ?? 0) < BoundedText.reportLimit + 64)
        #expect(answer.error?.hasSuffix("more bytes]") == true)
        #expect((answer.code?.utf8.count ?? 0) < 256 + 64)
    }

    @Test func aHugeOutputIsCutAfterGrading() {
        let big = JSONValue.string(String(repeating: "y", count: 200_000))
        let kept = Runner.bounded(SubjectAnswer(.valid, output: .object(["diagnostic": big])))
        #expect(kept.output?.stringValue?.hasPrefix("[output of ") == true)
        let small = SubjectAnswer(.valid, output: .object(["diagnostic": .string("0")]))
        #expect(Runner.bounded(small) == small)
    }
}

/// An adapter's reply may explain its answer (docs/vectors.md): read,
/// bounded like the error text, and never graded.
@Suite struct AdapterExplanationTests {
    @Test func aReplysExplanationIsReadAndBounded() {
        let long = String(repeating: "z", count: 64 * 1024)
        let line = #"{"id": "7", "result": "invalid", "error": "bad", "explanation": "\#(long)"}"#
        guard case .answer(let answer) = AdapterReply.read(line, id: 7, firstIdOfProcess: 1) else {
            Issue.record("the reply was not read as an answer")
            return
        }
        #expect(answer.explanation?.hasPrefix("zzz") == true)
        #expect((answer.explanation?.utf8.count ?? 0) < BoundedText.reportLimit + 64)
        let plain = #"{"id": "7", "result": "valid"}"#
        if case .answer(let answer) = AdapterReply.read(plain, id: 7, firstIdOfProcess: 1) { #expect(answer.explanation == nil) }
    }
}
