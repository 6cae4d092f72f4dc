import Foundation
import SyncKernel

extension AuthPlugin {
    /// Signs in and releases every queue held for a login.
    public func login(username: String, password: String) async throws -> Session {
        do {
            return try await keeper.login(username: username, password: password)
        } catch let failure as RemoteFailure where failure.status == 401 {
            throw FerryError(.needsLogin, "wrong username or password for \(username)", underlying: failure)
        } catch let failure as TransportFailure {
            throw FerryError(
                .requiresConnection,
                "cannot reach the server to sign in (\(failure.reason)); your cached session, if any, is unchanged",
                underlying: failure
            )
        }
    }

    /// Ends the session here and, when the remote answers, there too. Returns whether the
    /// remote was told.
    public func logout() async throws -> Bool {
        let session = try await keeper.current()
        var told = false
        if let token = session?.accessToken {
            do {
                try await client.logout(token: token)
                told = true
            } catch {
                told = false
            }
        }
        try await keeper.save(nil)
        return told
    }

    /// Acts as `member` (a managed member's id) from now on, or as oneself with nil.
    public func act(as member: String?) async throws -> Session {
        try await keeper.setActingAs(member)
    }

    /// Checks the session with the remote now, unless `connectivity` says the remote cannot
    /// be reached (`ferry network offline`, or a probe that found no route): then nothing is
    /// sent and the session is kept, offline.
    public func verify(connectivity: ConnectivityState? = nil) async -> Verification {
        guard let session = try? await keeper.current(), session.isActive else { return .signedOut }
        if let connectivity, !connectivity.reachable {
            return .offline("the network is \(connectivity.summary)")
        }
        do {
            try await checkWithRemote()
            return .verified
        } catch let failure as RemoteFailure where failure.status == 401 || failure.status == 403 {
            return .ended(failure.reason)
        } catch let failure as TransportFailure {
            return .offline(failure.reason)
        } catch let failure as RemoteFailure {
            // The remote answered: a server error (5xx) or another refusal is not being offline.
            return .unavailable(failure.reason)
        } catch {
            return .unavailable("\(error)")
        }
    }

    /// The outcome of checking a session with the remote.
    public enum Verification: Sendable, Equatable {
        case verified
        /// No answer (no route, refused, timed out) or the network is forced offline.
        case offline(String)
        /// The remote answered with an error that is not a refusal of the session (a 5xx):
        /// the session is kept and not verified.
        case unavailable(String)
        case ended(String)
        case signedOut
    }
}
