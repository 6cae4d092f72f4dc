import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the connection, for the loopback
/// check of `/admin` and for closing a connection when a fault asks for it.
struct FerryRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The peer's IP address.
    var peer: String? { channel.remoteAddress?.ipAddress }

    /// Whether the peer is on the loopback interface.
    var isLoopback: Bool {
        guard let address = channel.remoteAddress?.ipAddress else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
