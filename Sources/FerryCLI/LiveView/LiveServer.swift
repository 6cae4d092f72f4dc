import Hummingbird
import Logging
import ServiceLifecycle
import SyncKernel

/// The live view's HTTP server: Hummingbird on the configured address, as a service that
/// tells where it listens and says plainly when it cannot.
final class LiveServer: Service, Sendable {
    private let application: Application<RouterResponder<BasicRequestContext>>
    private let address: ListenAddress
    private let addresses: AsyncStream<ListenAddress>
    private let continuation: AsyncStream<ListenAddress>.Continuation

    init(
        router: Router<BasicRequestContext>,
        address: ListenAddress,
        listening: @escaping @Sendable (ListenAddress) async -> Void
    ) {
        let (addresses, continuation) = AsyncStream.makeStream(
            of: ListenAddress.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        self.address = address
        self.addresses = addresses
        self.continuation = continuation
        application = Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port),
                serverName: nil
            ),
            onServerRunning: { channel in
                let bound = ListenAddress(host: address.host, port: channel.localAddress?.port ?? address.port)
                continuation.yield(bound)
                await listening(bound)
            },
            logger: Logger(label: "ferry.live-view")
        )
    }

    func run() async throws {
        defer { continuation.finish() }
        do {
            try await application.run()
        } catch {
            throw FerryError(
                .configuration,
                "the live view cannot listen on status.listen \(address): \(error); choose another address or port, or free this one",
                underlying: error
            )
        }
    }

    /// Where the server listens, once it does; nil when it stopped first.
    func bound() async -> ListenAddress? {
        for await address in addresses { return address }
        return nil
    }
}
