import FerryServer
import Foundation
import Logging
import Testing

/// A server that dies where it records an idempotency answer keeps nothing of the request:
/// the effect and its record commit together or not at all, alone or inside a batch.
@Suite("A server that dies before it records its answer")
struct CrashBeforeRecordTests {
    /// An in-process server on its own data, with the demo user signed in.
    struct Bed {
        let directory: String
        var server: InProcessFerryServer
        var token = ""

        static func open() async throws -> Bed {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)").path
            var bed = Bed(directory: directory, server: try await start(directory, fresh: true))
            let login = try await bed.server.respond(
                method: "POST",
                path: "/v1/auth/login",
                headers: [("Content-Type", "application/json")],
                body: Data(#"{"username": "demo", "password": "demo-password"}"#.utf8)
            )
            let object = try JSONSerialization.jsonObject(with: login.body) as? [String: Any]
            bed.token = try #require(object?["access_token"] as? String)
            return bed
        }

        static func start(_ directory: String, fresh: Bool) async throws -> InProcessFerryServer {
            var configuration = FerryServerConfiguration(
                dataDirectory: directory,
                seedDemo: fresh,
                logger: Logger(label: "crash", factory: { _ in SwiftLogNoOpLogHandler() })
            )
            configuration.passwordHashCost = 4
            configuration.admin = .off
            return try await InProcessFerryServer.open(configuration)
        }

        /// Sends `method path` with `body` and `key`; with `dying`, the server dies where it
        /// records its answer.
        func send(_ method: String, _ path: String, _ body: String, key: String? = nil, dying: Bool = false)
            async throws -> (status: Int, headers: [String: String], body: Data)
        {
            var headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
            if let key { headers.append(("Idempotency-Key", key)) }
            return try await server.respond(dyingBeforeRecord: dying, method: method, path: path, headers: headers, body: Data(body.utf8))
        }

        /// The server dies and starts again on its data.
        mutating func restart() async throws {
            await server.close()
            server = try await Self.start(directory, fresh: false)
        }

        func close() async {
            await server.close()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static let batch = """
        {"requests": [
          {"method": "PUT", "path": "/v1/domains/notes/documents/a", "headers": {"Idempotency-Key": "k-a"}, "body": {"note": "1"}},
          {"method": "PUT", "path": "/v1/domains/notes/documents/b", "headers": {"Idempotency-Key": "k-b"}, "body": {"note": "2"}}
        ]}
        """

    @Test func aBatchKeepsNoneOfItsEffectsAndRunsEachOnceWhenSentAgain() async throws {
        var bed = try await Bed.open()
        let before = try await bed.server.changeSequence()
        await #expect(throws: ServerDied.self) { try await bed.send("POST", "/v1/batch", Self.batch, dying: true) }
        try await bed.restart()
        #expect(try await bed.server.changeSequence() == before)

        let sent = try await bed.send("POST", "/v1/batch", Self.batch)
        let answers = try #require((try JSONSerialization.jsonObject(with: sent.body) as? [String: Any])?["responses"] as? [[String: Any]])
        #expect(answers.map { $0["status"] as? Int } == [201, 201])
        let again = try await bed.send("POST", "/v1/batch", Self.batch)
        let replays = try #require((try JSONSerialization.jsonObject(with: again.body) as? [String: Any])?["responses"] as? [[String: Any]])
        #expect(replays.map { ($0["headers"] as? [String: String])?["Idempotent-Replayed"] } == ["true", "true"])
        await bed.close()
    }

    @Test func aLoneWriteKeepsNothingAndAReadIsAnswered() async throws {
        var bed = try await Bed.open()
        let before = try await bed.server.changeSequence()
        await #expect(throws: ServerDied.self) {
            try await bed.send("PUT", "/v1/domains/notes/documents/a", #"{"note": "1"}"#, key: "k-1", dying: true)
        }
        try await bed.restart()
        #expect(try await bed.server.changeSequence() == before)
        let read = try await bed.server.respond(
            dyingBeforeRecord: true,
            method: "GET",
            path: "/v1/domains/notes/documents/a",
            headers: [("Authorization", "Bearer \(bed.token)")]
        )
        #expect(read.status == 404)
        let sent = try await bed.send("PUT", "/v1/domains/notes/documents/a", #"{"note": "1"}"#, key: "k-1")
        #expect(sent.status == 201)
        #expect(sent.headers["idempotent-replayed"] == nil)
        await bed.close()
    }
}
