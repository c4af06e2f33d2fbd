import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// How long a connection may take at each stage before the service closes
/// it (issue 22 item 4: the round-3 audit held 2,350 connections open, one
/// byte at a time or none, and the service never timed one out).
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

    public init() {}
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
/// decoder.
struct TimedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let timeouts: ConnectionTimeouts

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeouts = self.timeouts
        return inner.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            let deadlines = ConnectionDeadlines(timeouts)
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(FirstByteHandler(deadlines), position: .first)
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(RequestStageHandler(deadlines), position: .before(state))
            return value
        }.nonisolated()
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
