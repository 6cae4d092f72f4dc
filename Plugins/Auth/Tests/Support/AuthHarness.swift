import AuthPlugin
import FerryServer
import Foundation
import Logging
import SyncKernel
import SyncKernelTesting

/// A real FerryServer on loopback and a runtime with the auth plugin, each with its own clock.
struct AuthHarness {
    let server: RunningFerryServer
    let serverClock: TestClock
    let test: TestRuntime
    let folder: URL

    var auth: AuthPlugin { get throws { try test.runtime.plugin(AuthPlugin.self) } }

    static func make(
        extraYAML: String = "",
        plugins: [any SyncPlugin.Type] = [AuthPlugin.self]
    ) async throws -> AuthHarness {
        let serverClock = TestClock(now: Date())
        var configuration = FerryServerConfiguration(
            port: 0,
            seedDemo: true,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.passwordHashCost = 4
        configuration.now = { serverClock.now() }
        let server = try await FerryServer.start(configuration)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-auth-\(UUID().uuidString)")
        let yaml = "data_dir: \(folder.path)\nplugins:\n  auth: {}\n" + extraYAML
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: plugins,
            clock: TestClock(now: Date())
        )
        return AuthHarness(server: server, serverClock: serverClock, test: test, folder: folder)
    }

    /// Requests the server received for `route` (e.g. "POST /v1/auth/refresh").
    func received(_ route: String) async throws -> Int {
        let response = try await HTTPTransport(baseURL: server.baseURL).send(
            HTTPRequest("GET", "/admin/stats", authenticated: false)
        )
        let stats = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return (stats?["requests"] as? [String: Any])?[route] as? Int ?? 0
    }

    func finish() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
