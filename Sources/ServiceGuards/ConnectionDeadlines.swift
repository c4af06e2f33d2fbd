import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a connection may take at each stage before the service closes
/// it (issue 22 item 4: the round-3 audit held 2,350 connections open, one
/// byte at a time or none, and the service never timed one out), and how
/// many may be open at once (issue 52 item 5: 1,100 idle connections to
/// the example server, at a 1,024-descriptor limit, locked every other
/// client out). Both `serve devicecheck` and `serve appattest` use it.
public struct ConnectionTimeouts: Sendable {
    /// From the connection's accept, or the end of its last response, to the
    /// first byte of the next request: idle keep-alive connections.
    public var idle: Duration = .seconds(30)
    /// From a request's first byte to the end of its header block: clients
    /// that send headers a byte at a time (slowloris).
    public var header: Duration = .seconds(10)
    /// From the end of the header block to the end of the body: clients that
    /// stall or trickle a body (at most 64 KiB here).
    public var body: Duration = .seconds(10)
    /// Most connections open at once: one more is answered `503 Service
    /// Unavailable` (`too many connections: at most N open at once`,
    /// `Connection: close`) and closed at once, so the descriptors left stay
    /// free for the clients already in.
    public var maxConnections = ConnectionTimeouts.defaultMaxConnections

    /// Half the process's descriptor limit (its soft `RLIMIT_NOFILE`), at
    /// most 1024 and at least 16.
    public static let defaultMaxConnections: Int = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 512 }
        let half = Int(clamping: limit.rlim_cur / 2)
        return min(1024, max(16, half))
    }()

    public init() {}
}

/// The connections a server has open, against its cap.
final class OpenConnections: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// Counts one more connection when under the cap; false (nothing counted) when at it.
    func admit() -> Bool {
        var current = count.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = count.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func release() { count.subtract(1, ordering: .relaxed) }
}

/// Answers a connection over the cap with one 503 and closes it (first in
/// the pipeline, so no request reaches the router). What the client sent is
/// read and dropped until it closes, or for ``drainLimit`` at most: a close
/// with unread bytes in the socket makes the kernel send a reset, which
/// discards the 503 on the client's side before it reads it (issue 61,
/// item 10). So the answer is followed by a half-close (FIN), and the
/// connection is closed when the client has read it and closed its side.
final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let limit: Int
    private var sent = false
    /// How long a refused connection may stay open to be drained.
    static let drainLimit: TimeAmount = .seconds(2)

    init(limit: Int) { self.limit = limit }

    static func response(limit: Int) -> String {
        let body = "too many connections: at most \(limit) open at once\n"
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) { refuse(context) }

    /// The client's bytes: dropped (never parsed, never routed).
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        let channel = context.channel
        let bytes = context.channel.allocator.buffer(string: Self.response(limit: limit))
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
            // The FIN after the answer; reading goes on until the client's end of file closes the channel.
            channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
        }
        context.eventLoop.scheduleTask(in: Self.drainLimit) { channel.close(promise: nil) }
    }
}

/// One connection's clock: the stage it is in and the one timer that closes
/// it when the stage outlasts its limit. Lives on the connection's event
/// loop; shared by the two handlers below, which see the raw bytes (first
/// byte of a request) and the parsed parts (head, end, response end).
final class ConnectionDeadlines {
    enum Stage { case idle, header, body, responding }

    let timeouts: ConnectionTimeouts
    private(set) var stage = Stage.idle
    /// Requests read whose response has not ended (HTTP/1.1 pipelining).
    private var outstanding = 0
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(_ timeouts: ConnectionTimeouts) { self.timeouts = timeouts }

    func attach(_ context: ChannelHandlerContext) {
        self.context = context
        enter(.idle)
    }

    func detach() {
        timer?.cancel()
        timer = nil
        context = nil
    }

    func bytesArrived() { if stage == .idle { enter(.header) } }
    func headRead() { enter(.body) }
    func endRead() {
        outstanding += 1
        enter(.responding)
    }

    func responseEnded() {
        outstanding = max(0, outstanding - 1)
        if outstanding == 0, stage == .responding { enter(.idle) }
    }

    private func enter(_ next: Stage) {
        stage = next
        timer?.cancel()
        timer = nil
        let limit: Duration? =
            switch next {
            case .idle: timeouts.idle
            case .header: timeouts.header
            case .body: timeouts.body
            case .responding: nil
            }
        guard let limit, let context else { return }
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) { [weak self] in
            self?.context?.close(promise: nil)
        }
    }
}

/// First in the pipeline: sees each read before the HTTP decoder, so the
/// header limit runs from a request's first byte.
final class FirstByteHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    let deadlines: ConnectionDeadlines

    init(_ deadlines: ConnectionDeadlines) { self.deadlines = deadlines }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { deadlines.attach(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        deadlines.attach(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadlines.detach()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { deadlines.detach() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.bytesArrived()
        context.fireChannelRead(data)
    }
}

/// After the HTTP decoder: a request's head and end, and each response's end.
final class RequestStageHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    let deadlines: ConnectionDeadlines

    init(_ deadlines: ConnectionDeadlines) { self.deadlines = deadlines }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadlines.headRead()
        case .body: break
        case .end: deadlines.endRead()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { deadlines.responseEnded() }
        context.write(data, promise: promise)
    }
}

/// Hummingbird's HTTP/1.1 channel with the two handlers above around its
/// decoder, and the connection cap: a connection over it gets the
/// ``RefusalHandler`` instead.
public struct TimedHTTP1Channel: ServerChildChannel {
    public typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let timeouts: ConnectionTimeouts
    let open: OpenConnections

    public init(inner: HTTP1Channel, timeouts: ConnectionTimeouts) {
        self.inner = inner
        self.timeouts = timeouts
        open = OpenConnections(limit: timeouts.maxConnections)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeouts = self.timeouts
        let open = self.open
        let admitted = open.admit()
        if admitted { channel.closeFuture.whenComplete { _ in open.release() } }
        return inner.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            guard admitted else {
                try operations.addHandler(RefusalHandler(limit: open.limit), position: .first)
                return value
            }
            let deadlines = ConnectionDeadlines(timeouts)
            try operations.addHandler(FirstByteHandler(deadlines), position: .first)
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(RequestStageHandler(deadlines), position: .before(state))
            return value
        }.nonisolated()
    }

    public func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
