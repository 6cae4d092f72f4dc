import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The HTTP entry point: counts the request, injects faults, caps and reads the body,
/// dispatches, writes the response and logs one line.
struct FerryResponder: HTTPResponder {
    typealias Context = FerryRequestContext

    let dispatcher: Dispatcher
    var environment: ServerEnvironment { dispatcher.environment }

    /// Raised inside a response body writer to cut the connection (drop/truncate faults).
    struct InjectedDisconnect: Error {}

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        let method = request.method
        let (response, damage) = await handle(request, path: path, context: context)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        environment.logger.info(
            "\(method.rawValue) \(path) \(response.status.code)",
            metadata: [
                "method": "\(method.rawValue)", "path": "\(path)", "status": "\(response.status.code)",
                "duration_ms": "\(String(format: "%.1f", milliseconds))",
            ]
        )
        return Self.httpResponse(response, head: method == .head, damage: damage)
    }

    private func handle(_ request: Request, path: String, context: Context) async -> (APIResponse, FaultKind?) {
        let resolved: Result<(Route, [String: String]), APIError>
        do {
            resolved = .success(try dispatcher.resolve(method: request.method, path: path))
        } catch {
            resolved = .failure(error)
        }
        let template = (try? resolved.get())?.0.template ?? "<unmatched>"
        environment.stats.record("\(request.method.rawValue) \(template)")

        var damage: FaultKind?
        if !path.hasPrefix("/admin") {
            let (latency, decision) = environment.faults.decide(path: path)
            if latency > 0 { try? await Task.sleep(for: .milliseconds(latency)) }
            switch decision {
            case .none: break
            case .respond(let kind): return (.error(environment.faults.error(for: kind)), nil)
            case .damage(let kind): damage = kind
            }
        }

        let route: Route
        let parameters: [String: String]
        switch resolved {
        case .success(let found): (route, parameters) = found
        case .failure(let error): return (.error(error), damage)
        }
        let configuration = environment.configuration
        let limit = route.body == .upload ? configuration.maxUploadBytes : configuration.maxBodyBytes
        let body: Data
        do {
            body = try await Self.readBody(request, limit: limit)
        } catch {
            return (.error(error), damage)
        }
        var apiRequest = APIRequest(
            method: request.method == .head ? .get : request.method,
            path: path,
            query: PathSegments.query(request.uri.query),
            headers: Self.headers(request.headers),
            body: body,
            parameters: parameters
        )
        apiRequest.peer = context.peer
        return (await dispatcher.execute(route, apiRequest, isLoopback: context.isLoopback), damage)
    }

    /// Reads at most `limit` bytes of body; more is a 413 `payload_too_large`.
    static func readBody(_ request: Request, limit: Int) async throws(APIError) -> Data {
        let tooLarge = APIError(
            .contentTooLarge,
            "payload_too_large",
            "The request body exceeds \(limit) bytes.",
            details: ["limit": .int(limit)]
        )
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        var data = Data()
        do {
            for try await buffer in request.body {
                if data.count + buffer.readableBytes > limit { throw tooLarge }
                data.append(contentsOf: buffer.readableBytesView)
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badRequest("unreadable_body", "The request body could not be read.")
        }
        return data
    }

    /// Request headers keyed by lowercased name; repeated headers are joined with ", ".
    static func headers(_ fields: HTTPFields) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let name = field.name.canonicalName.lowercased()
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return headers
    }

    static func httpResponse(_ response: APIResponse, head: Bool, damage: FaultKind?) -> Response {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { fields[fieldName] = value }
        }
        let length =
            response.headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) }
            ?? response.body.count
        if response.status != .noContent && response.status != .notModified {
            fields[.contentLength] = String(length)
        }
        if head {
            return Response(status: response.status, headers: fields, body: ResponseBody())
        }
        let buffer = ByteBuffer(bytes: response.body)
        switch damage {
        case .drop:
            let half = buffer.getSlice(at: 0, length: buffer.readableBytes / 2) ?? ByteBuffer()
            return Response(
                status: response.status,
                headers: fields,
                body: ResponseBody(contentLength: length) { writer in
                    try await writer.write(half)
                    throw InjectedDisconnect()
                }
            )
        case .truncate:
            fields[.contentLength] = String(length + 64)
            return Response(
                status: response.status,
                headers: fields,
                body: ResponseBody(contentLength: length + 64) { writer in
                    try await writer.write(buffer)
                    throw InjectedDisconnect()
                }
            )
        default:
            return Response(status: response.status, headers: fields, body: ResponseBody(byteBuffer: buffer))
        }
    }
}
