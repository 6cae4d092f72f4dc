import Foundation
import SyncKernelTesting
import Testing

/// `ferry serve --database`: a URL that is not PostgreSQL's is a usage error naming the
/// form it needs; a database that cannot be reached ends the command with the address it
/// tried, never with the password in it.
@Suite("ferry serve --database", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct ServeDatabaseTests {
    @Test func aURLOfAnotherDatabaseIsAUsageErrorNamingTheForm() async throws {
        let ferry = try FerryExecutable.configured("")
        let result = try await ferry.run(["serve", "--port", "0", "--database", "mysql://user@127.0.0.1/ferry"])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("postgres://USER[:PASSWORD]@HOST:PORT/DATABASE"), "\(result.error)")
    }

    @Test func aBadParameterIsAUsageErrorThatNeverRepeatsThePassword() async throws {
        let ferry = try FerryExecutable.configured("")
        let result = try await ferry.run(
            ["serve", "--port", "0", "--database", "postgres://ferry:s3cret-pw@127.0.0.1/ferry?sslmode=always"]
        )
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("sslmode 'always'") && result.error.contains("verify-full"), "\(result.error)")
        #expect(!(result.output + result.error).contains("s3cret-pw"), "\(result.error)")
    }

    @Test func aDatabaseThatCannotBeReachedEndsTheCommandWithoutThePassword() async throws {
        let ferry = try FerryExecutable.configured("")
        let result = try await ferry.run(["serve", "--port", "0"], environment: ["FERRY_DATABASE_URL": "postgres://ferry:s3cret-pw@127.0.0.1:1/ferry"])
        #expect(result.status != 0)
        #expect(result.error.contains("127.0.0.1:1"), "\(result.error)")
        #expect(!(result.output + result.error).contains("s3cret-pw"))
    }
}
