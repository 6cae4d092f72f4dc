import Foundation
import Testing

@Suite("Audio library and track files with Range")
struct AudioTests {
    func firstTrack(_ server: TestServer, _ token: String) async throws -> [String: Any] {
        let album = try await server.request(.GET, "/v1/audio/albums/alb_demo_1", token: token)
        return try #require((album.object["tracks"] as? [[String: Any]])?.first)
    }

    @Test func albumsArtistsAndCollections() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let albums = try await server.request(.GET, "/v1/audio/albums", token: token)
        #expect((albums.object["albums"] as? [Any])?.count == 5)
        let artists = try await server.request(.GET, "/v1/audio/artists", token: token)
        #expect((artists.object["artists"] as? [Any])?.count == 2)
        let collections = try await server.request(.GET, "/v1/audio/collections", token: token)
        #expect((collections.object["collections"] as? [Any])?.count == 2)
        let favourites = try await server.request(.GET, "/v1/audio/collections/col_demo_favourites", token: token)
        #expect(favourites.object["album_ids"] as? [String] == ["alb_demo_1", "alb_demo_3"])
        let track = try await firstTrack(server, token)
        #expect(track["part_key"] as? String == "demo-a1-t1.wav")
        #expect(track["track_number"] as? Int == 1)
        #expect((track["sha256"] as? String)?.count == 64)
        #expect(
            try await server.request(.GET, "/v1/audio/albums/alb_none", token: token).errorCode == "album_not_found"
        )
        await server.stop()
    }

    @Test func wholeFilesMatchTheirSizeAndChecksum() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let track = try await firstTrack(server, token)
        let file = try await server.request(.GET, "/v1/audio/files/demo-a1-t1.wav", token: token)
        #expect(file.status == 200)
        #expect(file.body.count == track["byte_size"] as? Int)
        #expect(file.header("Content-Length") == String(file.body.count))
        #expect(file.header("Accept-Ranges") == "bytes")
        #expect(file.header("ETag") == "\"\(track["sha256"] as? String ?? "")\"")
        #expect(String(decoding: file.body.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: file.body.dropFirst(8).prefix(4), as: UTF8.self) == "WAVE")
        #expect(await sha256Hex(file.body) == track["sha256"] as? String)
        let unauthenticated = try await server.request(.GET, "/v1/audio/files/demo-a1-t1.wav")
        #expect(unauthenticated.status == 401)
        let head = try await server.request(.HEAD, "/v1/audio/files/demo-a1-t1.wav", token: token)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(file.body.count))
        #expect(head.body.isEmpty)
        let etag = try #require(file.header("ETag"))
        let notModified = try await server.request(
            .GET,
            "/v1/audio/files/demo-a1-t1.wav",
            token: token,
            headers: ["If-None-Match": etag]
        )
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        await server.stop()
    }

    @Test func rangesAnswer206And416() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let whole = try await server.request(.GET, "/v1/audio/files/demo-a2-t3.wav", token: token).body
        let size = whole.count
        let middle = try await server.request(
            .GET,
            "/v1/audio/files/demo-a2-t3.wav",
            token: token,
            headers: ["Range": "bytes=100-199"]
        )
        #expect(middle.status == 206)
        #expect(middle.header("Content-Range") == "bytes 100-199/\(size)")
        #expect(middle.header("Content-Length") == "100")
        #expect(middle.body == whole.subdata(in: 100..<200))
        let open = try await server.request(
            .GET,
            "/v1/audio/files/demo-a2-t3.wav",
            token: token,
            headers: ["Range": "bytes=\(size - 10)-"]
        )
        #expect(open.status == 206)
        #expect(open.body == whole.suffix(10))
        let suffix = try await server.request(
            .GET,
            "/v1/audio/files/demo-a2-t3.wav",
            token: token,
            headers: ["Range": "bytes=-44"]
        )
        #expect(suffix.body == whole.suffix(44))
        let beyond = try await server.request(
            .GET,
            "/v1/audio/files/demo-a2-t3.wav",
            token: token,
            headers: ["Range": "bytes=\(size)-"]
        )
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */\(size)")
        #expect(beyond.errorCode == "range_not_satisfiable")
        let staleIfRange = try await server.request(
            .GET,
            "/v1/audio/files/demo-a2-t3.wav",
            token: token,
            headers: ["Range": "bytes=0-9", "If-Range": "\"old\""]
        )
        #expect(staleIfRange.status == 200)
        #expect(staleIfRange.body.count == size)
        await server.stop()
    }

    @Test func partKeysAreValidated() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        for path in [
            "/v1/audio/files/..%2F..%2Fetc%2Fpasswd", "/v1/audio/files/..", "/v1/audio/files/a%00b",
            "/v1/audio/files/.hidden",
        ] {
            let response = try await server.request(.GET, path, token: token)
            #expect(response.status == 400, "\(path)")
            #expect(response.hasErrorShape)
        }
        #expect(
            try await server.request(.GET, "/v1/audio/files/missing.wav", token: token).errorCode == "file_not_found"
        )
        await server.stop()
    }

    @Test func collectionMembershipChangesReachTheChangesFeed() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let start = try await server.request(.GET, "/v1/audio/collections/changes", token: token)
        let cursor = try #require(start.object["cursor"] as? String)
        let changed = try await server.request(
            .PUT,
            "/admin/audio/collections/col_demo_favourites",
            json: ["album_ids": ["alb_demo_2"]]
        )
        #expect(changed.status == 200)
        #expect(changed.object["version"] as? Int == 2)
        let feed = try await server.request(.GET, "/v1/audio/collections/changes?since=\(cursor)", token: token)
        let change = try #require((feed.object["changes"] as? [[String: Any]])?.first)
        #expect((change["entity"] as? [String: Any])?["album_ids"] as? [String] == ["alb_demo_2"])
        let bad = try await server.request(.PUT, "/admin/audio/collections/col_x", json: ["album_ids": ["alb_none"]])
        #expect(bad.status == 404)
        let albums = try await server.request(.GET, "/v1/audio/albums/changes", token: token)
        #expect((albums.object["changes"] as? [Any])?.count == 5)
        await server.stop()
    }
}
