import FerryServer
import Foundation
import Logging
import SyncKernel

/// Resolves the configured `server:` to a URL; `embedded` starts the reference server
/// in this process on a free loopback port, once, with demo data in
/// `<data_dir>/server`, and stops it at the end.
actor RemoteHost {
    let configuration: FerryConfiguration
    private var embedded: Task<RunningFerryServer, any Error>?

    init(configuration: FerryConfiguration) {
        self.configuration = configuration
    }

    func resolve(_ remote: String) async throws -> String {
        if remote == "embedded" { return try await startEmbedded().baseURL }
        guard let url = URL(string: remote), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw FerryError(
                .configuration,
                "\(configuration.file): server \(remote) is neither `embedded` nor an http(s) URL; write e.g. server: https://api.example.com"
            )
        }
        return remote
    }

    /// Starts the embedded server once; concurrent callers share the same start.
    private func startEmbedded() async throws -> RunningFerryServer {
        if let embedded { return try await embedded.value }
        let folder = configuration.dataDirectory.appendingPathComponent("server").path
        let starting = Task {
            var logger = Logger(label: "ferry.embedded-server")
            logger.logLevel = .warning
            do {
                var server = FerryServerConfiguration(
                    host: "127.0.0.1",
                    port: 0,
                    dataDirectory: folder,
                    seedDemo: true,
                    logger: logger
                )
                server.admin = .off
                return try await FerryServer.start(server)
            } catch {
                throw FerryError(
                    .storage,
                    "could not start the embedded server in \(folder): \(error)",
                    underlying: error
                )
            }
        }
        embedded = starting
        return try await starting.value
    }

    func stop() async {
        if let server = try? await embedded?.value { await server.stop() }
        embedded = nil
    }
}
