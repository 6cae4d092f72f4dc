import Foundation
import Testing

@Suite("Hostile input gets a 4xx with the error shape")
struct HostileInputTests {
    @Test func malformedJSONAndWrongShapes() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let cases: [(Data, String)] = [
            (Data("{not json".utf8), "malformed_json"),
            (Data("[1,2,3]".utf8), "invalid_body"),
            (Data("\"text\"".utf8), "invalid_body"),
            (Data(), "missing_body"),
            (Data([0xFF, 0xFE, 0x00]), "malformed_json"),
        ]
        for (body, code) in cases {
            let response = try await server.request(
                .POST,
                "/v1/movies",
                body: body,
                token: token,
                headers: ["Content-Type": "application/json"]
            )
            #expect(response.status == 400)
            #expect(response.errorCode == code)
            #expect(response.hasErrorShape)
        }
        let login = try await server.request(.POST, "/v1/auth/login", body: Data("{\"username\":".utf8))
        #expect(login.status == 400)
        let wrongType = try await server.request(.POST, "/v1/movies", json: ["tmdb_id": "949"], token: token)
        #expect(wrongType.status == 400)
        #expect(wrongType.errorDetails["field"] as? String == "tmdb_id")
        let unknown = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 603, "admin": true],
            token: token
        )
        #expect(unknown.errorCode == "unknown_field")
        await server.stop()
    }

    @Test func oversizedBodiesAre413() async throws {
        let server = try await TestServer.start { $0.maxBodyBytes = 1024 }
        let token = try await server.login()
        let big = Data(("{\"title\":\"" + String(repeating: "a", count: 5000) + "\"}").utf8)
        let response = try await server.request(.PUT, "/v1/recipes/big", body: big, token: token)
        #expect(response.status == 413)
        #expect(response.errorCode == "payload_too_large")
        #expect(response.hasErrorShape)
        #expect(try await server.request(.GET, "/v1/health").status == 200)
        await server.stop()
    }

    @Test func traversalInIdsAndPathsIs400() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let paths = [
            "/v1/recipes/..%2F..%2Fserver.sqlite", "/v1/recipes/%2e%2e", "/v1/recipes/a%5Cb",
            "/v1/recipes/..%2Fx/photo",
            "/v1/saved-recipes/%00", "/v1/movies/.%2e",
        ]
        for path in paths {
            let response = try await server.request(.GET, path, token: token)
            #expect((400..<500).contains(response.status), "\(path)")
            #expect(response.hasErrorShape, "\(path)")
        }
        let weird = try await server.request(.PUT, "/v1/recipes/-dash", json: ["title": "x"], token: token)
        #expect(weird.errorCode == "invalid_id")
        await server.stop()
    }

    @Test func badHeadersAndQueries() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let badIfMatch = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["status": "watched"],
            token: token,
            headers: ["If-Match": "version-one"]
        )
        #expect(badIfMatch.status == 400)
        #expect(badIfMatch.errorCode == "invalid_if_match")
        let badAuth = try await server.request(.GET, "/v1/movies", headers: ["Authorization": "Basic abc"])
        #expect(badAuth.status == 401)
        let badLimit = try await server.request(.GET, "/v1/movies/changes?limit=-1", token: token)
        #expect(badLimit.errorCode == "invalid_limit")
        let badStatus = try await server.request(.GET, "/v1/movies?status=%27%3B%20DROP%20TABLE", token: token)
        #expect(badStatus.status == 400)
        let badVote = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/abc",
            json: ["value": "up"],
            token: token
        )
        #expect(badVote.errorCode == "invalid_tmdb_id")
        await server.stop()
    }

    @Test func deeplyNestedJSONIsRejectedWithoutCrashing() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let depth = 200_000
        let nested = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let response = try await server.request(
            .POST,
            "/v1/movies",
            body: nested,
            token: token,
            headers: ["Content-Type": "application/json"]
        )
        #expect(response.status == 400)
        #expect(response.hasErrorShape)
        let inBatch = Data(
            ("{\"requests\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}").utf8
        )
        let batch = try await server.request(
            .POST,
            "/v1/batch",
            body: inBatch,
            token: token,
            headers: ["Content-Type": "application/json"]
        )
        #expect(batch.status == 400)
        #expect(try await server.request(.GET, "/v1/health").status == 200)
        await server.stop()
    }
}
