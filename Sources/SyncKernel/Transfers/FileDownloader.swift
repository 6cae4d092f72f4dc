import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams one HTTP body into a partial file, resuming with `Range` when the partial
/// file already holds a prefix. It never writes to the final path.
struct FileDownloader: Sendable {
    /// What a finished stream produced.
    struct Result: Sendable {
        var bytes: Int64
        var total: Int64?
        var etag: String?
    }

    /// What puts the request on the wire: a plugin's transport, so that downloads share the
    /// runtime's client, resolve paths against the plugin's remote and carry its
    /// credentials there (never to a third party).
    let transport: HTTPTransport
    /// How long to wait for the answer to begin; the body then has no overall limit, only
    /// the executor's stall timeout.
    var deadline: TimeInterval = 6 * 3600

    /// Downloads `url` into `partial`, continuing from its current size when `resumeETag`
    /// (or no validator) allows; calls `progress` with bytes received so far and the total.
    func download(
        _ url: String,
        headers: [(String, String)],
        into partial: URL,
        resumeETag: String?,
        validator: @Sendable (String?) async -> Void,
        stillAllowed: (@Sendable () async -> Bool)? = nil,
        progress: @Sendable (Int64, Int64?) async -> Void
    ) async throws -> Result {
        let existing = Self.size(of: partial)
        var sent = headers
        if existing > 0 {
            sent.append(("Range", "bytes=\(existing)-"))
            if let resumeETag { sent.append(("If-Range", resumeETag)) }
        }
        let path = "GET \(AsyncHTTPExecutor.redactedPath(url))"
        var writer: PartialFile?
        var refusal: (status: Int, headers: [String: String], body: Data)?
        var result = Result(bytes: 0, total: nil, etag: nil)
        do {
            try await transport.stream(HTTPRequest("GET", url, headers: sent), timeout: deadline) { status, headers in
                result.etag = headers["etag"]
                switch status {
                case 206:
                    guard let range = ContentRange(headers["content-range"] ?? ""), range.start == existing else {
                        try? FileManager.default.removeItem(at: partial)
                        throw FerryError(
                            .remoteUnavailable,
                            "\(path): the remote resumed at another offset; the partial file was dropped and the download starts over"
                        )
                    }
                    result.total = range.total
                    writer = try PartialFile(at: partial, from: existing)
                    await validator(result.etag)
                case 200:
                    result.total = headers["content-length"].flatMap { Int64($0) }
                    writer = try PartialFile(at: partial, from: 0)
                    await validator(result.etag)
                case 416 where existing > 0 && Self.unsatisfiedTotal(headers["content-range"]) == existing:
                    // The partial file already holds every byte (the answer that brought the
                    // last ones was cut before its end): nothing is left to ask for.
                    result.total = existing
                    result.bytes = existing
                    return
                case 416:
                    try? FileManager.default.removeItem(at: partial)
                    throw FerryError(
                        .remoteUnavailable,
                        "\(path): the partial file no longer matches the remote file; it was dropped and the download starts over"
                    )
                default:
                    refusal = (status, headers, Data())
                }
                result.bytes = writer?.size ?? 0
                await progress(result.bytes, result.total)
            } body: { chunk in
                if let file = writer {
                    try file.write(chunk)
                    let before = result.bytes
                    result.bytes = file.size
                    if result.bytes / (256 << 10) != before / (256 << 10) { await progress(result.bytes, result.total) }
                    if result.bytes >> 20 != before >> 20, let stillAllowed, !(await stillAllowed()) {
                        throw FerryError(
                            .requiresConnection,
                            "\(path): the connection no longer allows this download; it stops after \(result.bytes) bytes and resumes when it does"
                        )
                    }
                } else if var answer = refusal, answer.body.count < 64 << 10 {
                    answer.body.append(chunk.prefix((64 << 10) - answer.body.count))
                    refusal = answer
                }
            }
        } catch let failure as TransportFailure where writer != nil {
            writer?.close()
            throw TransportFailure(reason: "\(failure.reason) after \(result.bytes) bytes")
        } catch {
            writer?.close()
            throw error
        }
        if let refusal {
            throw RemoteFailure(status: refusal.status, headers: refusal.headers, body: refusal.body)
        }
        try writer?.finish()
        await progress(result.bytes, result.total)
        return result
    }

    /// The size a `416` names in `Content-Range: bytes */SIZE`.
    static func unsatisfiedTotal(_ header: String?) -> Int64? {
        guard let header, header.hasPrefix("bytes */") else { return nil }
        return Int64(header.dropFirst("bytes */".count))
    }

    static func size(of url: URL) -> Int64 {
        // `stat` alone: Foundation's attributes would also look up the owner's name.
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// The partial file a download appends to.
private final class PartialFile {
    private let handle: FileHandle
    private(set) var size: Int64

    /// Opens `url` for writing from `offset`: truncated when 0, appended to otherwise.
    init(at url: URL, from offset: Int64) throws {
        // Readable by its owner only, as the store and the credentials are.
        if offset == 0 { _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) }
        handle = try FileHandle(forWritingTo: url)
        if offset == 0 { try handle.truncate(atOffset: 0) } else { try handle.seekToEnd() }
        size = offset
    }

    func write(_ data: Data) throws {
        try handle.write(contentsOf: data)
        size += Int64(data.count)
    }

    /// Makes what was written durable and closes the file.
    func finish() throws {
        try handle.synchronize()
        close()
    }

    func close() {
        try? handle.close()
    }
}
