import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@testable import MoviesPlugin

/// People ids are computed on both sides (protocol §9): the client for its offline list,
/// the server for `/v1/people`. They must agree, or one person shows up twice.
@Suite("Movies: people ids")
struct PeopleIDTests {
    /// Names of every kind: Latin, accented, Cyrillic, CJK, Hangul, emoji, mixed, padded,
    /// decomposed (`Е` + combining diaeresis is `Ё`), digits only.
    static let names = [
        "Sam", "sam", "José", "Zoë", "O'Brien", "Łukasz", "ß", "1917", "Ёж", "ёж", "ЁЖ", "Лиса", "  Лиса  ",
        "Е\u{0308}ж", "Еж", "宮崎駿", "宮崎", "김민준", "🎬", "🍿", "🍿 Popcorn", "Ёж Sam", "Ωμέγα",
    ]

    /// A movie the server is asked to add.
    struct NewMovie: Encodable {
        var tmdbId: Int
        var title: String
        var recommender: String
    }

    @Test func theClientGivesTheServersIDForEveryName() async throws {
        let server = try await DemoFerryServer.start()
        let token = try await server.login()
        let remote = HTTPTransport(baseURL: server.baseURL, credentials: StaticCredentials(token: token))
        var movieIDs: [String: String] = [:]
        for (offset, name) in Self.names.enumerated() {
            let movie = NewMovie(tmdbId: 90_000 + offset, title: "Film \(offset)", recommender: name)
            let added = try await remote.send(try .json("POST", "/v1/movies", body: movie))
            let object = try JSONSerialization.jsonObject(with: added.body) as? [String: Any]
            movieIDs[name] = try #require(object?["id"] as? String)
        }
        let answer = try await remote.send(HTTPRequest("GET", "/v1/people"))
        let people = try #require(
            (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["people"] as? [[String: Any]]
        )
        for name in Self.names {
            let person = people.first { ($0["movie_ids"] as? [String])?.contains(movieIDs[name] ?? "") == true }
            #expect(person?["id"] as? String == Person.identifier(name), "\(name)")
        }
        await server.stop()
    }

    @Test func namesWithoutLatinLettersStayDistinct() {
        let ids = ["Ёж", "Лиса", "宮崎駿", "宮崎", "김민준", "🎬", "🍿", "Еж"].map(Person.identifier)
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.allSatisfy { $0.wholeMatch(of: /person-[0-9a-f]{8}/) != nil }, "\(ids)")
    }

    @Test func oneNameWrittenDifferentlyIsOnePerson() {
        #expect(Person.identifier("Ёж") == Person.identifier("ёж"))
        #expect(Person.identifier("Ёж") == Person.identifier("Е\u{0308}ж"))
        #expect(Person.identifier("Лиса") == Person.identifier("  Лиса  "))
        #expect(Person.identifier("José") == "jose")
        #expect(Person.identifier("🍿 Popcorn") == "popcorn")
        #expect(Person.identifier("Ёж") == "person-58221a30")
    }
}
