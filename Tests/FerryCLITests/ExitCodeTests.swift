import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// Exit statuses that scripts rely on, whatever command meets the condition.
@Suite(
    "ferry exit codes",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)")
)
struct ExitCodeTests {
    @Test func aServerErrorIs69AndAQuestionAnsweredNoIs64() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            """
            server: \(server.baseURL)
            plugins:
              auth: {username: demo, password: demo-password}
              recipes: {}
            """
        )
        try #require(try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password").status == 0)
        server.setFaults(FaultSettings(failNext: .init(kind: .internalError, count: 10), pathPrefix: "/v1/recipes"))
        let shown = try await ferry.run(["recipes", "show", "demo-pancakes"])
        #expect(shown.status == 69, "\(shown.status) \(shown.error)")
        #expect(shown.error.contains("500"))

        server.setFaults(FaultSettings())
        let refused = try await ferry.run(["auth", "logout"])
        #expect(refused.status == 64 && refused.error.contains("still signed in"), "\(refused.error)")
        await server.stop()
    }
}
