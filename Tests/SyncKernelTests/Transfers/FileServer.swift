import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A small real HTTP file server on loopback: `GET /files/{name}` with `ETag`,
/// `Content-Length` and single `Range: bytes=N-` requests, and scripted cuts (the
/// connection closes after some bytes of the body) to exercise resumes.
final class FileServer: Sendable {
    private struct State {
        var files: [String: Data] = [:]
        var cutAfter: [String: Int] = [:]
        var log: [(path: String, range: String?)] = []
    }

    private let state = Mutex(State())

    /// Serves `data` as `/files/{name}`.
    func put(_ name: String, _ data: Data) { state.withLock { $0.files[name] = data } }
    /// The next answer for `name` stops after `bytes` bytes of its body and closes the connection.
    func cut(_ name: String, after bytes: Int) { state.withLock { $0.cutAfter[name] = bytes } }
    /// The `Range` header of every request, in order.
    var ranges: [String?] { state.withLock { $0.log.map(\.range) } }
    var requestCount: Int { state.withLock { $0.log.count } }

    static func with<T: Sendable>(_ body: @Sendable (FileServer, String) async throws -> T) async throws -> T {
        let server = FileServer()
        return try await Loopback.serve(server.router()) { url in try await body(server, url) }
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
