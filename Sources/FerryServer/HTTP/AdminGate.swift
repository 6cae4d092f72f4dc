import FerryHashing
import Foundation

/// Who gets through to `/admin`, as `FerryServerConfiguration.admin` says.
enum AdminGate {
    static func check(
        _ request: APIRequest,
        isLoopback: Bool,
        access: FerryServerConfiguration.AdminAccess
    ) throws(APIError) {
        switch access {
        case .off:
            throw APIError.notFound("not_found", "No endpoint at \(request.path.prefix(200)).")
        case .loopback:
            guard isLoopback else { throw APIError.forbidden("Admin endpoints answer loopback callers only.") }
        case .token(let token):
            let given = request.header("Authorization").flatMap { header -> String? in
                let parts = header.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : nil
            }
            // Compared as hashes, so the time taken tells nothing of the token.
            guard let given, SHA256Hasher.hex(Data(given.utf8)) == SHA256Hasher.hex(Data(token.utf8)) else {
                throw APIError.forbidden("Admin endpoints need 'Authorization: Bearer <admin token>'.")
            }
        }
    }
}
