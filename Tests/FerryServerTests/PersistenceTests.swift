import FerryServer
import Foundation
import Testing

@Suite("SQLite storage in a data directory")
struct PersistenceTests {
    @Test func dataSurvivesARestartAndDemoDataIsSeededOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ferry-server-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await TestServer.start(storage: .sqlite) { $0.dataDirectory = directory }
        let token = try await first.login()
        #expect(
            try await first.request(.POST, "/v1/movies", json: ["tmdb_id": 78, "title": "Blade Runner"], token: token)
                .status == 201
        )
        await first.stop()
        #expect(FileManager.default.fileExists(atPath: directory + "/server.sqlite"))

        let second = try await TestServer.start(storage: .sqlite) { $0.dataDirectory = directory }
        let again = try await second.login()
        let movies = try await second.request(.GET, "/v1/movies", token: again)
        let ids = (movies.object["movies"] as? [[String: Any]] ?? []).compactMap { $0["tmdb_id"] as? Int }
        #expect(ids.count == 5)
        #expect(ids.contains(78))
        await second.stop()
    }
}
