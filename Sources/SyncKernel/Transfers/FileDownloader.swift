import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Streams one HTTP body into a partial file, resuming with `Range` when the partial
/// file already holds a prefix. It never writes to the final path.
struct FileDownloader: Sendable {
    /// What a finished stream produced.
    struct Result: Sendable {
        var bytes: Int64
        var total: Int64?
        var etag: String?
    }

    /// A client for files: fails fast on refused connections, gives up on a stalled body
    /// after `read` seconds of silence, and does not decompress (sizes stay the remote's).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        configuration.timeout.read = .seconds(30)
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// The longest a whole download may take.
    var deadline: TimeAmount = .hours(6)

    /// Downloads `url` into `partial`, continuing from its current size when `resumeETag`
    /// (or no validator) allows; calls `progress` with bytes received so far and the total.
    func download(
        _ url: String,
        headers: [(String, String)],
        into partial: URL,
        resumeETag: String?,
        progress: @Sendable (Int64, Int64?) -> Void
    ) async throws -> Result {
        let existing = Self.size(of: partial)
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "Ferry")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if existing > 0 {
            request.headers.add(name: "Range", value: "bytes=\(existing)-")
            if let resumeETag { request.headers.add(name: "If-Range", value: resumeETag) }
        }
        let response: HTTPClientResponse
        do {
            response = try await Self.client.execute(request, timeout: deadline)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportFailure(
                reason: "GET \(AsyncHTTPExecutor.redactedPath(url)): \(AsyncHTTPExecutor.describe(error))"
            )
        }
        let status = Int(response.status.code)
        let etag = response.headers.first(name: "etag")
        var offset: Int64
        var total: Int64?
        switch status {
        case 206:
            guard let range = ContentRange(response.headers.first(name: "content-range") ?? ""), range.start == existing
            else {
                try? FileManager.default.removeItem(at: partial)
                throw FerryError(
                    .remoteUnavailable,
                    "GET \(AsyncHTTPExecutor.redactedPath(url)): the remote resumed at another offset; the partial file was dropped and the download starts over"
                )
            }
            offset = existing
            total = range.total
        case 200:
            offset = 0
            total = response.headers.first(name: "content-length").flatMap { Int64($0) }
        case 416:
            try? FileManager.default.removeItem(at: partial)
            throw FerryError(
                .remoteUnavailable,
                "GET \(AsyncHTTPExecutor.redactedPath(url)): the partial file no longer matches the remote file; it was dropped and the download starts over"
            )
        default:
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            let body = try? await response.body.collect(upTo: 64 << 10)
            throw RemoteFailure(
                status: status,
                headers: headers,
                body: body.map { Data($0.readableBytesView) } ?? Data()
            )
        }
        if offset == 0 {
            _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: partial)
        defer { try? handle.close() }
        if offset == 0 { try handle.truncate(atOffset: 0) } else { try handle.seekToEnd() }
        var received = offset
        var reported: Int64 = -1
        progress(received, total)
        do {
            for try await buffer in response.body {
                try handle.write(contentsOf: Data(buffer.readableBytesView))
                received += Int64(buffer.readableBytes)
                if received - reported >= 256 << 10 {
                    reported = received
                    progress(received, total)
                }
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportFailure(
                reason:
                    "GET \(AsyncHTTPExecutor.redactedPath(url)): \(AsyncHTTPExecutor.describe(error)) after \(received) bytes"
            )
        }
        try handle.synchronize()
        progress(received, total)
        return Result(bytes: received, total: total, etag: etag)
    }

    static func size(of url: URL) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
