import Testing

@testable import SyncKernel

/// `server:` and `remote:` are checked by hand, not by `URLComponents`: the same answers.
@Suite("Configuration: http(s) addresses")
struct HTTPAddressTests {
    @Test(arguments: [
        "http://127.0.0.1:8080", "https://ferry.example.com", "HTTP://Ferry.Example.com/", "http://[::1]:80/v1",
        "https://user:secret@host/path?x=1#top", "http://localhost", "https://bücher.example/",
    ])
    func anHTTPURLWithAHostIsAccepted(text: String) {
        #expect(HTTPAddress.hasHost(text))
    }

    @Test(arguments: [
        "ftp://x", "localhost:8080", "http://", "http://:80", "http://exa mple.com", "http://host:port",
        "http://[::1", "http://host:80x", "", "http:/x", "embedded", "https://[]/",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(!HTTPAddress.hasHost(text))
    }
}
