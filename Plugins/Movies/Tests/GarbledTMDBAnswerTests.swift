import Foundation
import SyncKernel
import Testing

@testable import MoviesPlugin

/// An answer from TMDB that cannot be read (a proxy's error page with a 200, an answer
/// cut short) is a failure that passes: the match is tried again, never left to a person.
@Suite struct GarbledTMDBAnswerTests {
    /// Answers every request with a proxy's page.
    struct ProxyPage: HTTPExecutor {
        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["content-type": "text/html"], body: Data("<html>502 Bad Gateway</html>".utf8))
        }
    }

    @Test func aGarbledSearchAnswerIsTriedAgain() async throws {
        var settings = TMDBSettings()
        settings.url = "https://api.themoviedb.org/3"
        let client = TMDBClient(settings: settings, transport: HTTPTransport(baseURL: "https://ferry.test", executor: ProxyPage()))
        let error = await #expect(throws: FerryError.self) { try await client.search(title: "Aliens", year: nil) }
        #expect(error?.code == .remoteUnavailable)
    }
}

/// A movie the server sent that cannot be read (the answer to an update cut short) is a
/// failure that passes: the update goes again, never left to a person.
@Suite struct GarbledMovieAnswerTests {
    @Test func aGarbledMovieIsAskedAgain() {
        let error = #expect(throws: FerryError.self) { try ServerMovie.decode(Data(#"{"id": "m_demo_he"#.utf8)) }
        #expect(error?.code == .remoteUnavailable)
    }
}
