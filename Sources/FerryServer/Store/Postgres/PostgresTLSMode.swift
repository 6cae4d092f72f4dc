import NIOSSL
import PostgresNIO

/// Whether and how the connection to PostgreSQL is encrypted: the `sslmode` of a
/// `postgres://` URL, with libpq's names and meanings.
///
/// - `disable`: never encrypted.
/// - `prefer` (the default): encrypted when the database offers it, without checking its
///   certificate; in the clear when it does not.
/// - `require`: always encrypted, without checking the certificate (protects against
///   listening, not against a database that is not the one named).
/// - `verify-ca`: encrypted, and the certificate is signed by a trusted authority
///   (`sslrootcert`, else the system's).
/// - `verify-full`: as `verify-ca`, and the certificate names the URL's host.
public enum PostgresTLSMode: String, Sendable, CaseIterable {
    case disable
    case prefer
    case require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    init(parameter: String) throws(PostgresLocationError) {
        guard let mode = Self(rawValue: parameter) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw PostgresLocationError("has sslmode '\(parameter.prefix(16))': use one of \(known)")
        }
        self = mode
    }
}

extension PostgresLocation {
    /// The TLS settings of a connection to this location. Throws ``PostgresLocationError``
    /// when `sslrootcert` cannot be read as PEM certificates.
    func connectionTLS() throws(PostgresLocationError) -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return .disable
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificates {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificates))
            } catch {
                throw PostgresLocationError(
                    "has sslrootcert '\(rootCertificates)', which cannot be read as PEM certificates (\(error))"
                )
            }
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw PostgresLocationError("asks for TLS, which cannot be set up here (\(error))")
        }
        return tls == .prefer ? .prefer(context) : .require(context)
    }
}
