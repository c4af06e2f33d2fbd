import VectorContract
import Foundation
import Synchronization
import TrustSuiteSupport

/// What one reply line means to the request `id` waiting for it
/// (docs/vectors.md, adapter protocol): the parser the fuzz harness
/// `FuzzAdapterReply` runs on arbitrary lines.
package enum AdapterReply: Sendable, Equatable {
    /// A reply to an earlier request of this process (late or doubled): ignored.
    case late(Int)
    /// The answer to `id`.
    case answer(SubjectAnswer)
    /// Not JSON, not an object, or for another id: the adapter cannot be
    /// trusted any more and is restarted.
    case untrusted(String)
    /// For `id`, but `result` is not valid, invalid or unsupported: the case
    /// is graded `error`.
    case badVerdict

    package static func read(_ text: String, id: Int, firstIdOfProcess: Int) -> AdapterReply {
        guard let reply = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), reply.objectValue != nil else {
            return .untrusted("malformed reply line: \(text.prefix(200))")
        }
        let replyId = reply["id"]?.stringValue
        // An earlier request's id exactly as the runner wrote it (decimal, no
        // sign or leading zero: "+2" is no id of ours; found by FuzzAdapterReply).
        if let replyId, let number = Int(replyId), replyId == "\(number)", number >= firstIdOfProcess, number < id {
            return .late(number)
        }
        guard replyId == "\(id)" else {
            return .untrusted("reply for id \(reply["id"]?.jsonText ?? "none"), expected \"\(id)\"")
        }
        guard let verdictName = reply["result"]?.stringValue, let verdict = SubjectAnswer.Verdict(rawValue: verdictName) else {
            return .badVerdict
        }
        // What a reply may put in a report is bounded (issue 44): the
        // error text, explanation and code are cut at BoundedText.reportLimit, marked.
        var answer = SubjectAnswer(
            verdict, error: reply["error"]?.stringValue.map { BoundedText.cut($0) },
            code: reply["code"]?.stringValue.map { BoundedText.cut($0, limit: 256) }, output: reply["output"])
        answer.explanation = reply["explanation"]?.stringValue.map { BoundedText.cut($0) }
        return .answer(answer)
    }
}

/// Lines from a pipe, handed to one waiter at a time with a timeout. Each
/// byte is looked at once, so reading a line is linear in its length.
package final class LineChannel: Sendable {
    /// `tooLong` is reported once per line, when the line passes the limit
    /// (how many bytes had arrived by then depends on how the pipe split
    /// them, so it is not part of the event: found by FuzzAdapterReply).
    package enum Event: Sendable, Equatable { case line(String), tooLong, closed, timeout }

    /// Everything the reader thread and the waiter share, under one lock.
    private struct State {
        var pending: [Event] = []
        var head = 0
        /// The bytes of the line being read (no newline among them).
        var partial: [UInt8] = []
        /// Inside a line that went over the limit: dropped up to its newline.
        var discarding = false
        var closed = false
        var waiter: (token: Int, continuation: CheckedContinuation<Event, Never>)?
        var nextToken = 0
        /// Bytes searched for a newline so far: each byte once.
        var scanned = 0
        let maxLineBytes: Int

        mutating func split(_ chunk: ArraySlice<UInt8>) {
            var rest = chunk
            while let newline = newline(in: rest) {
                if discarding {
                    discarding = false
                } else {
                    partial.append(contentsOf: rest[rest.startIndex..<newline])
                    if partial.count > maxLineBytes {
                        pending.append(.tooLong)
                    } else {
                        pending.append(.line(String(decoding: partial, as: UTF8.self)))
                    }
                    partial = []
                }
                rest = rest[(newline + 1)...]
            }
            guard !discarding else { return }
            partial.append(contentsOf: rest)
            if partial.count > maxLineBytes {
                pending.append(.tooLong)
                partial = []
                discarding = true
            }
        }

        /// The offset of the first newline of `bytes`; the bytes searched are counted.
        private mutating func newline(in bytes: ArraySlice<UInt8>) -> Int? {
            let found = bytes.withUnsafeBufferPointer { buffer -> Int? in
                guard let base = buffer.baseAddress, buffer.count > 0,
                    let found = memchr(base, 0x0A, buffer.count)
                else { return nil }
                return UnsafeRawPointer(found) - UnsafeRawPointer(base)
            }
            scanned += found.map { $0 + 1 } ?? bytes.count
            return found.map { bytes.startIndex + $0 }
        }

        /// The next pending event (a line, or end of file once all lines are taken).
        mutating func take() -> Event? {
            if head < pending.count {
                let event = pending[head]
                head += 1
                if head > 64 && head * 2 > pending.count {
                    pending.removeFirst(head)
                    head = 0
                }
                return event
            }
            return closed ? .closed : nil
        }
    }

    private let state: Mutex<State>

    package init(maxLineBytes: Int) { state = Mutex(State(maxLineBytes: maxLineBytes)) }

    /// How many bytes were searched for a newline: each byte fed once, however the pipe split the line.
    package var bytesScanned: Int { state.withLock { $0.scanned } }

    /// Called with each chunk read; an empty chunk means end of file.
    package func feed(_ chunk: ArraySlice<UInt8>) {
        let resume: (CheckedContinuation<Event, Never>, Event)? = state.withLock { state in
            if chunk.isEmpty {
                state.closed = true
            } else {
                state.split(chunk)
            }
            guard let waiter = state.waiter, let event = state.take() else { return nil }
            state.waiter = nil
            return (waiter.continuation, event)
        }
        if let (continuation, event) = resume { continuation.resume(returning: event) }
    }

    /// The next event without waiting: nil when nothing is pending yet.
    package func poll() -> Event? {
        state.withLock { $0.take() }
    }

    func next(timeout: Duration) async -> Event {
        await withCheckedContinuation { continuation in
            let immediate: Event? = state.withLock { state in
                if let event = state.take() { return event }
                state.nextToken += 1
                state.waiter = (state.nextToken, continuation)
                let token = state.nextToken
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.expire(token)
                }
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(_ token: Int) {
        let continuation: CheckedContinuation<Event, Never>? = state.withLock { state in
            guard let waiter = state.waiter, waiter.token == token else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        continuation?.resume(returning: .timeout)
    }
}
