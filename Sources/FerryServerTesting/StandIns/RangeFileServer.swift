import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A file host on loopback: `GET /files/{name}` with `ETag`, `Content-Length`, single
/// `Range: bytes=N-` requests and `If-Range`, and scripted cuts (the connection closes
/// after an exact number of bytes of the body) to exercise resumed downloads.
///
/// It stays beside the reference server because downloads need files of any content and
/// cuts at a chosen byte; the reference server's `drop` fault cuts at half the body of its
/// own demo files.
///
/// ```swift
/// try await RangeFileServer.with { server, url in
///     server.put("a.bin", data)
///     server.cut("a.bin", after: 1000)
///     // download url + "/files/a.bin", then resume: server.ranges == [nil, "bytes=1000-"]
/// }
/// ```
public final class RangeFileServer: Sendable {
    private struct State {
        var files: [String: Data] = [:]
        var cutAfter: [String: Int] = [:]
        var log: [(path: String, range: String?)] = []
    }

    private let state = Mutex(State())

    /// Serves `data` as `/files/{name}`.
    public func put(_ name: String, _ data: Data) { state.withLock { $0.files[name] = data } }
    /// The next answer for `name` stops after `bytes` bytes of its body and closes the connection.
    public func cut(_ name: String, after bytes: Int) { state.withLock { $0.cutAfter[name] = bytes } }
    /// The `Range` header of every request, in order.
    public var ranges: [String?] { state.withLock { $0.log.map(\.range) } }
    /// How many requests arrived.
    public var requestCount: Int { state.withLock { $0.log.count } }

    /// Runs a server on a free loopback port for the duration of `body`, which gets it and
    /// its base URL.
    public static func with<T: Sendable>(
        _ body: @Sendable (RangeFileServer, String) async throws -> T
    ) async throws -> T {
        let server = RangeFileServer()
        return try await LoopbackServer.serve(server.router()) { url in try await body(server, url) }
    }

    private struct Cut: Error {}

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/files/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let range = request.headers[.range]
            let (file, cut) = self.state.withLock { state in
                state.log.append((request.uri.path, range))
                return (state.files[name], state.cutAfter.removeValue(forKey: name))
            }
            guard let data = file else { return Response(status: .notFound) }
            let etag = "\"\(data.count)-\(data.first ?? 0)\""
            var fields = HTTPFields()
            fields[.eTag] = etag
            fields[.acceptRanges] = "bytes"
            var status = HTTPResponse.Status.ok
            var slice = data
            if let range, range.hasPrefix("bytes="), range.hasSuffix("-"),
                let start = Int(range.dropFirst(6).dropLast()),
                request.headers[.ifRange] == nil || request.headers[.ifRange] == etag
            {
                guard start < data.count else { return Response(status: .rangeNotSatisfiable) }
                slice = data.subdata(in: start..<data.count)
                status = .partialContent
                fields[.contentRange] = "bytes \(start)-\(data.count - 1)/\(data.count)"
            }
            let bytes = slice
            return Response(
                status: status,
                headers: fields,
                body: ResponseBody(contentLength: bytes.count) { writer in
                    if let cut {
                        try await writer.write(ByteBuffer(bytes: bytes.prefix(cut)))
                        throw Cut()
                    }
                    try await writer.write(ByteBuffer(bytes: bytes))
                    try await writer.finish(nil)
                }
            )
        }
        return router
    }
}
