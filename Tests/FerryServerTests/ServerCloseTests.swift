import Foundation
import Logging
import Testing

@testable import FerryServer

/// A server closed is freed, its database with it: the router, which the batch route's
/// sub-requests go through, holds the server's environment, and the environment held the
/// router until the close let go of it.
@Suite struct ServerCloseTests {
    @Test func aClosedServerIsFreedWithItsEnvironment() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("close-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = FerryServerConfiguration(
            dataDirectory: directory,
            logger: Logger(label: "close", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.admin = .off
        weak var environment: ServerEnvironment?
        do {
            let server = try await InProcessFerryServer.open(configuration)
            environment = server.environment
            #expect(try await server.respond(method: "GET", path: "/v1/health").status == 200)
            await server.close()
        }
        #expect(environment == nil)
    }
}
