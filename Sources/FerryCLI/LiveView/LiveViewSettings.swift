import Foundation
import SyncKernel

/// `status:` in `config.yaml`: whether a running `ferry run` serves its live view (a page,
/// a JSON API and `/metrics`) over HTTP, where, and with which token. Off unless `listen` is set.
///
/// ```yaml
/// status:
///   listen: 127.0.0.1:8484
///   token: ${FERRY_STATUS_TOKEN}   # needed when listen is not a loopback address
/// ```
struct LiveViewSettings: Sendable, Equatable {
    /// Where to listen; nil when the live view is off.
    var listen: ListenAddress?
    /// The bearer token every request must carry, when set.
    var token: String?

    /// The live view is off.
    static let off = LiveViewSettings()

    init(listen: ListenAddress? = nil, token: String? = nil) {
        self.listen = listen
        self.token = token
    }

    /// What `status:` in `configuration` asks for, checked.
    ///
    /// - Throws: a `configuration` error naming the key and the fix.
    init(_ configuration: FerryConfiguration) throws {
        let file = configuration.file
        let section = configuration.kernel.status
        token = section.token.flatMap { $0.isEmpty ? nil : $0 }
        if let text = section.listen, !text.isEmpty {
            switch ListenAddress.parse(text) {
            case .success(let address): listen = address
            case .failure(let refusal): throw FerryError(.configuration, refusal.message(text, file: file))
            }
        }
        try validate(file: file)
    }

    /// The shortest token accepted: a guessable one would defeat its purpose.
    static let minimumTokenLength = 16

    /// Checks what the keys say together: a non-loopback address needs a token, and a
    /// token must be long enough.
    ///
    /// - Throws: a `configuration` error naming the key and the fix.
    func validate(file: String) throws {
        if let token, token.count < Self.minimumTokenLength {
            throw FerryError(
                .configuration,
                "\(file): status.token has \(token.count) characters; use at least \(Self.minimumTokenLength) random ones, for example from `openssl rand -hex 16`"
            )
        }
        if let listen, !listen.isLoopback, token == nil {
            throw FerryError(
                .configuration,
                "\(file): status.listen is \(listen), which other machines can reach; add status.token (at least \(Self.minimumTokenLength) random characters, e.g. token: ${FERRY_STATUS_TOKEN}) or listen on 127.0.0.1"
            )
        }
    }
}

/// A host and port to listen on or to reach: `127.0.0.1:8484`, `localhost:8484`,
/// `[::1]:8484`, `0.0.0.0:8484`. Port 0 picks a free one.
struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    let host: String
    let port: Int

    /// Parses `text`; nil with the reason when it is not `HOST:PORT`.
    static func parse(_ text: String) -> Result<ListenAddress, Refusal> {
        let text = text.trimmingCharacters(in: .whitespaces)
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(.unparsable) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return .failure(.noPort) }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                return .failure(text.allSatisfy(\.isNumber) && !text.isEmpty ? .noHost : .noPort)
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            if host.contains(":") { return .failure(.unparsable) }
        }
        guard !host.isEmpty else { return .failure(.noHost) }
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || "-.:".contains($0) }) else {
            return .failure(.unparsable)
        }
        guard !port.isEmpty else { return .failure(.noPort) }
        guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), let number = Int(port),
            (0...65_535).contains(number)
        else { return .failure(.portOutOfRange) }
        return .success(ListenAddress(host: String(host), port: number))
    }

    /// Why a value is not an address.
    enum Refusal: Error {
        case noPort, noHost, portOutOfRange, unparsable

        /// The message for `status.listen` set to `value`.
        func message(_ value: String, file: String) -> String {
            let fix = "write HOST:PORT, for example listen: 127.0.0.1:8484 (port 0 picks a free one)"
            switch self {
            case .noPort: return "\(file): status.listen \(value) has no port; \(fix)"
            case .noHost: return "\(file): status.listen \(value) has no host; \(fix)"
            case .portOutOfRange: return "\(file): status.listen \(value) has no port from 0 to 65535; \(fix)"
            case .unparsable: return "\(file): status.listen \(value) is not an address; \(fix)"
            }
        }
    }

    /// Whether only this machine can reach it: `localhost`, `127.x.x.x` or `::1`.
    var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The host as it goes in a URL: IPv6 in brackets.
    var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    var description: String { "\(urlHost):\(port)" }
}
