import Hummingbird
import Logging
import NIOCore

/// The request context: Hummingbird's core storage plus who is calling.
///
/// A request that arrives over HTTP knows its peer; a sub-request of `POST /v1/batch` is
/// routed through the same router with the context of its batch instead.
struct FerryRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address.
    let peer: String?
    /// Whether the peer is on the loopback interface.
    let isLoopback: Bool
    /// The batch this request is a sub-request of; nil for a request that came over HTTP.
    let batch: BatchRun?
    /// A sub-request's JSON body, parsed with its batch.
    let parsedBody: JSON?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        let address = source.channel.remoteAddress?.ipAddress
        peer = address
        isLoopback = address.map(Self.isLoopback) ?? false
        batch = nil
        parsedBody = nil
    }

    /// The context of a request handed to the router in this process
    /// (`InProcessFerryServer`): it comes from no peer, so it is not on loopback.
    init(inProcessWith logger: Logger) {
        coreContext = .init(source: SubrequestSource(logger: logger))
        peer = nil
        isLoopback = false
        batch = nil
        parsedBody = nil
    }

    /// The context of one sub-request of `batch`.
    init(subrequestOf batch: BatchRun, body: JSON?, logger: Logger) {
        coreContext = .init(source: SubrequestSource(logger: logger))
        peer = nil
        isLoopback = false
        self.batch = batch
        parsedBody = body
    }

    private static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    /// What Hummingbird's core storage is made from for a sub-request.
    private struct SubrequestSource: RequestContextSource {
        var logger: Logger
    }
}
