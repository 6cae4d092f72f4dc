import Foundation
import Testing

@testable import SyncKernel

@Suite("Batch wire format: sub-requests in, sub-responses out")
struct BatchWireTests {
    static let base = "http://127.0.0.1:8080"

    static func request(
        _ method: String = "PUT",
        url: String = base + "/v1/saved-recipes/demo-dal",
        headers: [(String, String)] = [("Authorization", "Bearer t1")],
        body: Data? = nil
    ) -> PreparedRequest {
        PreparedRequest(method: method, url: url, headers: headers, body: body, timeout: 30)
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: - item

    @Test func aRequestToAnotherHostCannotTravelInABatch() {
        #expect(BatchWire.item(Self.request(url: "http://example.com/v1/saved-recipes/a"), base: Self.base) == nil)
        // Same host, another port whose digits start like the base's.
        #expect(BatchWire.item(Self.request(url: "http://127.0.0.1:80801/v1/saved-recipes/a"), base: Self.base) == nil)
        // Same host and port, other scheme.
        #expect(BatchWire.item(Self.request(url: "https://127.0.0.1:8080/v1/saved-recipes/a"), base: Self.base) == nil)
        // The same request to the base does travel.
        #expect(BatchWire.item(Self.request(), base: Self.base) != nil)
    }

    @Test func aBodyThatIsNotJSONCannotTravelInABatch() {
        let png = Self.request(
            url: Self.base + "/v1/recipes/soup/photo",
            headers: [("Authorization", "Bearer t1"), ("Content-Type", "image/png")],
            body: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        )
        #expect(BatchWire.item(png, base: Self.base) == nil)
        // Declared JSON, but not JSON.
        let broken = Self.request(
            headers: [("Authorization", "Bearer t1"), ("Content-Type", "application/json")],
            body: Data(#"{"title": "#.utf8)
        )
        #expect(BatchWire.item(broken, base: Self.base) == nil)
        // JSON bytes, declared as something else.
        let undeclared = Self.request(
            headers: [("Authorization", "Bearer t1"), ("Content-Type", "text/plain")],
            body: Data(#"{"title": "Soup"}"#.utf8)
        )
        #expect(BatchWire.item(undeclared, base: Self.base) == nil)
    }

    @Test func aRequestWithoutCredentialsCannotTravelInABatch() {
        let anonymous = Self.request(headers: [("Idempotency-Key", "k1")])
        #expect(BatchWire.item(anonymous, base: Self.base) == nil)
    }

    @Test func anItemKeepsItsOwnHeadersAndLeavesTheOuterOnesToTheBatch() throws {
        let body = Data(#"{"status": "watched"}"#.utf8)
        let request = Self.request(
            "PATCH",
            url: Self.base + "/v1/movies/m_demo_heat?fields=all",
            headers: [
                ("User-Agent", "Ferry"), ("Accept", "application/json"),
                ("Content-Type", "application/json; charset=utf-8"),
                ("authorization", "Bearer t1"), ("Idempotency-Key", "op-2"), ("If-Match", "\"1\""),
                ("Content-Length", "21"),
            ],
            body: body
        )
        let item = try #require(BatchWire.item(request, base: Self.base))
        #expect(item.method == "PATCH")
        #expect(item.path == "/v1/movies/m_demo_heat?fields=all")
        #expect(item.body == body)
        #expect(item.headers.map(\.0) == ["Idempotency-Key", "If-Match"])
        #expect(item.headers.map(\.1) == ["op-2", "\"1\""])
    }

    @Test func thePathIsTakenBelowABaseWithATrailingSlashOrAPathOfItsOwn() throws {
        let slash = try #require(BatchWire.item(Self.request(), base: Self.base + "/"))
        #expect(slash.path == "/v1/saved-recipes/demo-dal")
        let mounted = try #require(
            BatchWire.item(Self.request(url: "http://h.test/api/v1/saved-recipes/x"), base: "http://h.test/api")
        )
        #expect(mounted.path == "/v1/saved-recipes/x")
        #expect(BatchWire.item(Self.request(url: "http://h.test/apiv1/x"), base: "http://h.test/api") == nil)
    }

    @Test func aRequestWithoutBodyTravelsWithoutOne() throws {
        let item = try #require(BatchWire.item(Self.request("DELETE", body: Data()), base: Self.base))
        #expect(item.body == nil)
    }

    // MARK: - encode

    @Test func encodingGivesTheProtocolsRequestsWithEachBodyCopiedExactly() throws {
        // Odd spacing, key order and escapes: copied byte for byte, not re-encoded.
        let body = Data(#"{"z": 1, "a": {"nested": [1, 2.5, {"deep": null}], "s": "quote \" slash \/ é"}}"#.utf8)
        let items = [
            BatchWire.Item(
                method: "PATCH",
                path: "/v1/movies/m1",
                headers: [("If-Match", "\"1\""), ("Idempotency-Key", "op-1")],
                body: body
            ),
            BatchWire.Item(
                method: "DELETE",
                path: "/v1/saved-recipes/a?x=1",
                headers: [("Idempotency-Key", "op-2")],
                body: nil
            ),
            BatchWire.Item(method: "GET", path: "/v1/movies", headers: [], body: nil),
        ]
        let encoded = BatchWire.encode(items)
        #expect(encoded.range(of: body) != nil, "the body is copied as it is")

        let object = try Self.json(encoded)
        #expect(Set(object.keys) == ["requests"])
        let requests = try #require(object["requests"] as? [[String: Any]])
        #expect(requests.count == 3)

        #expect(requests[0]["method"] as? String == "PATCH")
        #expect(requests[0]["path"] as? String == "/v1/movies/m1")
        #expect(requests[0]["headers"] as? [String: String] == ["If-Match": "\"1\"", "Idempotency-Key": "op-1"])
        let copied = try #require(requests[0]["body"] as? NSDictionary)
        #expect(copied == (try JSONSerialization.jsonObject(with: body) as? NSDictionary))
        let nested = try #require((copied["a"] as? [String: Any])?["nested"] as? [Any])
        #expect(nested.count == 3)
        #expect((nested[2] as? [String: Any])?["deep"] is NSNull)

        #expect(requests[1]["method"] as? String == "DELETE")
        #expect(requests[1]["path"] as? String == "/v1/saved-recipes/a?x=1")
        #expect(requests[1]["headers"] as? [String: String] == ["Idempotency-Key": "op-2"])
        #expect(requests[1].keys.contains("body") == false)

        #expect(requests[2]["method"] as? String == "GET")
        #expect(requests[2].keys.contains("body") == false)
        #expect((requests[2]["headers"] as? [String: String] ?? [:]).isEmpty)
        for request in requests {
            #expect(Set(request.keys).isSubset(of: ["method", "path", "headers", "body"]))
        }
    }

    @Test func aJSONFragmentBodyIsCopiedToo() throws {
        let items = [
            BatchWire.Item(method: "PUT", path: "/v1/a", headers: [], body: Data(#""text""#.utf8)),
            BatchWire.Item(method: "PUT", path: "/v1/b", headers: [], body: Data("[1,[2,[3]]]".utf8)),
        ]
        let requests = try #require(try Self.json(BatchWire.encode(items))["requests"] as? [[String: Any]])
        #expect(requests[0]["body"] as? String == "text")
        #expect((requests[1]["body"] as? NSArray) == ([1, [2, [3]]] as NSArray))
    }

    /// The batch's JSON is written by hand: every character a path or a header can hold
    /// comes out as it went in.
    @Test func awkwardPathsAndHeadersSurviveTheEncoding() throws {
        let path = "/v1/notes/a\"b\\c\u{1}d\te é/%2F"
        let headers = [("Idempotency-Key", "k\"\\\u{7f}"), ("X-Note", "line\nbreak"), ("If-Match", "\"3\"")]
        let requests = try #require(
            try Self.json(BatchWire.encode([BatchWire.Item(method: "PUT", path: path, headers: headers, body: nil)]))[
                "requests"
            ] as? [[String: Any]]
        )
        #expect(requests.first?["path"] as? String == path)
        #expect(requests.first?["headers"] as? [String: String] == Dictionary(uniqueKeysWithValues: headers))
    }

    @Test func headerNamesCompareInAnyASCIICase() {
        let request = Self.request(headers: [("idempotency-KEY", "k"), ("Ä", "x")], body: nil)
        #expect(request.header("Idempotency-Key") == "k")
        #expect(request.header("idempotency-keys") == nil)
        #expect(request.header("Ä") == "x" && request.header("ä") == nil)
    }

    @Test func anItemMadeFromARequestRoundTripsThroughTheEncoding() throws {
        let body = Data(#"{"title":"Soup","steps":["boil",{"minutes":5}]}"#.utf8)
        let request = Self.request(
            headers: [("Authorization", "Bearer t1"), ("Content-Type", "application/json"), ("Idempotency-Key", "k")],
            body: body
        )
        let item = try #require(BatchWire.item(request, base: Self.base))
        let requests = try #require(try Self.json(BatchWire.encode([item]))["requests"] as? [[String: Any]])
        #expect(requests.count == 1)
        #expect(requests[0]["path"] as? String == "/v1/saved-recipes/demo-dal")
        #expect(requests[0]["headers"] as? [String: String] == ["Idempotency-Key": "k"])
        #expect(
            (requests[0]["body"] as? NSDictionary) == (try JSONSerialization.jsonObject(with: body) as? NSDictionary)
        )
    }

    // MARK: - decode

    @Test func decodingMapsStatusHeadersAndEveryKindOfBody() throws {
        let answer = Data(
            #"""
            {"responses": [
              {"status": 201, "headers": {"ETag": "\"1\"", "Idempotent-Replayed": "true"},
               "body": {"id": "demo-pancakes", "tags": ["a", {"b": null}]}},
              {"status": 204, "headers": {}, "body": null},
              {"status": 200, "headers": {"X-Kind": "bytes"}, "body_base64": "AAEC/w=="},
              {"status": 412, "headers": {}, "body": {"error": {"code": "version_mismatch", "message": "stale", "details": {}}}}
            ]}
            """#.utf8
        )
        let responses = try #require(BatchWire.decode(answer, count: 4))
        #expect(responses.map(\.status) == [201, 204, 200, 412])

        #expect(responses[0].headers["etag"] == "\"1\"")
        #expect(responses[0].headers["idempotent-replayed"] == "true")
        #expect(responses[0].headers["ETag"] == nil, "header names are lower-cased, as for a request sent alone")
        let first = try #require(try JSONSerialization.jsonObject(with: responses[0].body) as? NSDictionary)
        #expect(first == (["id": "demo-pancakes", "tags": ["a", ["b": NSNull()]]] as NSDictionary))

        #expect(responses[1].body.isEmpty)
        #expect(responses[2].body == Data([0, 1, 2, 255]))
        #expect(responses[2].headers["x-kind"] == "bytes")

        let failure = try #require(try JSONSerialization.jsonObject(with: responses[3].body) as? [String: Any])
        #expect((failure["error"] as? [String: Any])?["code"] as? String == "version_mismatch")
    }

    @Test func aDecodedJSONBodyDecodesLikeTheSameBodySentAlone() throws {
        struct Movie: Decodable, Equatable {
            var id: String
            var tmdbId: Int
            var rating: Double?
        }
        let answer = Data(
            #"{"responses":[{"status":200,"headers":{},"body":{"id":"m1","tmdb_id":949,"rating":4.5}}]}"#.utf8
        )
        let response = try #require(BatchWire.decode(answer, count: 1)?.first)
        #expect(try response.decode(Movie.self) == Movie(id: "m1", tmdbId: 949, rating: 4.5))
    }

    @Test func aMissingBodyIsEmpty() throws {
        let answer = Data(#"{"responses":[{"status":204,"headers":{}}]}"#.utf8)
        let response = try #require(BatchWire.decode(answer, count: 1)?.first)
        #expect(response.status == 204 && response.body.isEmpty)
    }

    @Test(arguments: [
        // One answer too few, one too many.
        #"{"responses":[{"status":200,"headers":{},"body":null}]}"#,
        #"{"responses":[{"status":200,"headers":{},"body":null},{"status":200,"headers":{},"body":null},{"status":200,"headers":{},"body":null}]}"#,
    ])
    func anAnswerForAnotherNumberOfRequestsIsNotDecoded(_ text: String) {
        #expect(BatchWire.decode(Data(text.utf8), count: 2) == nil)
    }

    @Test(arguments: [
        #"{"error":{"code":"not_found","message":"No endpoint at /v1/batch.","details":{}}}"#,
        #"{"responses":{"status":200}}"#,
        #"{"responses":[{"headers":{},"body":null}]}"#,
        #"{"responses":[{"status":"200","headers":{},"body":null}]}"#,
        #"{"responses":[{"status":200,"headers":{},"body_base64":"not base64!"}]}"#,
        #"{"responses":[17]}"#,
        #"[{"status":200}]"#,
        "<html>Bad gateway</html>",
        "",
    ])
    func aBodyThatIsNotABatchAnswerIsNotDecoded(_ text: String) {
        #expect(BatchWire.decode(Data(text.utf8), count: 1) == nil)
    }

    /// Each sub-response's body is handed on as the server wrote it (not serialized again),
    /// whatever JSON sits around and inside it.
    @Test func aJSONBodyIsHandedOnAsTheServerWroteIt() throws {
        let bodies = [
            #"{"b":1,"a":[1.50,"x,]}\"y",{"c":null}],"e":1e3}"#,
            #""just a string, with ] and }""#,
            "-0.25",
            "true",
            #"{"nested":{"body":{"status":500}}}"#,
        ]
        let answers = bodies.map { #" { "headers" : {"X": "a\"b"}, "body" :  \#($0) , "status":200 } "# }
        let answer = Data(
            ("{ \"other\": [\"responses\"], \"responses\" : [" + answers.joined(separator: ",") + "\n] }").utf8
        )
        let responses = try #require(BatchWire.decode(answer, count: bodies.count))
        #expect(responses.map { String(decoding: $0.body, as: UTF8.self) } == bodies)
        #expect(responses.allSatisfy { $0.headers["x"] == "a\"b" && $0.status == 200 })
    }

    /// Keys and header values written with escapes read as their text.
    @Test func escapedKeysAndHeadersReadAsTheirText() throws {
        let answer = Data(
            #"{"respons\u0065s":[{"st\u0061tus":200,"headers":{"X-N\u00e4me":"caf\u00e9 \ud83c\udf7f \/ \t"},"body":{"id":"m1"}}]}"#.utf8
        )
        let response = try #require(BatchWire.decode(answer, count: 1)?.first)
        #expect(response.status == 200)
        #expect(response.headers["x-n\u{e4}me"] == "caf\u{e9} \u{1F37F} / \t")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"id":"m1"}"#)
    }
}
