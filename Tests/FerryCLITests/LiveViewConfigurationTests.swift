import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@testable import FerryCLI

/// `status:` in `config.yaml`: off by default, checked like every other key, and never
/// listening beyond this machine without a token.
@Suite("The live view's configuration")
struct LiveViewConfigurationTests {
    static func parse(_ yaml: String) throws -> LiveViewSettings {
        try LiveViewSettings(FerryConfiguration.parse(yaml, file: "config.yaml"))
    }

    static func message(_ yaml: String) -> String {
        do {
            _ = try parse(yaml)
            return "no error"
        } catch {
            return (error as? FerryError)?.message ?? "\(error)"
        }
    }

    @Test func offUnlessListenIsSet() throws {
        #expect(try Self.parse("data_dir: .ferry\n") == .off)
        #expect(try Self.parse("status:\n") == .off)
        let on = try Self.parse("data_dir: .ferry\nstatus:\n  listen: 127.0.0.1:8484\nserver: embedded\n")
        #expect(on.listen == ListenAddress(host: "127.0.0.1", port: 8484) && on.token == nil)
        #expect(try Self.parse("status: {listen: \"[::1]:0\"}\n").listen == ListenAddress(host: "::1", port: 0))
    }

    @Test func theKernelStillReadsEveryOtherKeyWithItsLineNumbers() throws {
        let configuration = try FerryConfiguration.parse(
            "status:\n  listen: localhost:8484\ndata_dir: elsewhere\n",
            file: "config.yaml"
        )
        #expect(configuration.kernel.dataDir == "elsewhere")
        let message = Self.message("status:\n  listen: localhost:8484\n  token: 0123456789abcdef\nsyncc: {}\n")
        #expect(message.hasPrefix("config.yaml:4: unknown key syncc"), "\(message)")
    }

    @Test(arguments: [
        ("status: {listen: 127.0.0.1}\n", "status.listen 127.0.0.1 has no port"),
        ("status: {listen: 8484}\n", "status.listen 8484 has no host"),
        ("status: {listen: \"127.0.0.1:70000\"}\n", "has no port from 0 to 65535"),
        ("status: {listen: \"127.0.0.1:http\"}\n", "has no port from 0 to 65535"),
        ("status: {listen: \"a b:80\"}\n", "is not an address"),
        ("status: {listen: [1, 2]}\n", "status.listen should be text"),
        ("status: {listn: 127.0.0.1:1}\n", "unknown key status.listn"),
        ("status: on\n", "status should be a mapping"),
        ("status: {listen: \"0.0.0.0:8484\"}\n", "add status.token"),
        ("status: {listen: \"0.0.0.0:8484\", token: short}\n", "status.token has 5 characters"),
    ])
    func badValuesNameTheKeyAndTheFix(yaml: String, expected: String) {
        let message = Self.message(yaml)
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains("config.yaml"), "\(message)")
    }

    @Test func aTokenNeverAppearsInAMessage() {
        let message = Self.message("status: {listen: \"0.0.0.0:8484\", token: abcdefghij}\n")
        #expect(!message.contains("abcdefghij"))
    }

    @Test func anyAddressWithATokenIsAccepted() throws {
        let settings = try Self.parse("status: {listen: \"0.0.0.0:8484\", token: 0123456789abcdef0123}\n")
        #expect(settings.listen?.isLoopback == false && settings.token == "0123456789abcdef0123")
        #expect(LiveStatusClient.reachable(settings.listen!) == ListenAddress(host: "127.0.0.1", port: 8484))
    }

    @Test func loopbackIsLocalhostAnd127AndTheIPv6One() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "::1"] {
            #expect(ListenAddress(host: host, port: 1).isLoopback, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.2", "127.0.0.1.example.com", "example.com"] {
            #expect(!ListenAddress(host: host, port: 1).isLoopback, "\(host)")
        }
    }

    @Test func tokensAreComparedWhole() {
        #expect(TokenComparison.equal("abc", "abc"))
        #expect(!TokenComparison.equal("ab", "abc"))
        #expect(!TokenComparison.equal("abcd", "abc"))
        #expect(!TokenComparison.equal("abd", "abc"))
        #expect(!TokenComparison.equal("", "abc"))
    }
}
