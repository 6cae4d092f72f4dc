import Testing

@testable import FerryServer

@Suite("PostgreSQL URLs and placeholders")
struct PostgresLocationTests {
    @Test func aURLGivesItsPartsAndItsDescriptionLeavesThePasswordOut() throws {
        let location = try PostgresLocation(url: "postgres://ferry:s3cret@db.internal:6543/ferry?schema=tenant_1")
        #expect(location.host == "db.internal" && location.port == 6543)
        #expect(location.user == "ferry" && location.password == "s3cret")
        #expect(location.database == "ferry" && location.schema == "tenant_1")
        #expect(location.description == "postgres://ferry@db.internal:6543/ferry?schema=tenant_1")
        #expect(!String(reflecting: location).contains("s3cret"))
        #expect(try PostgresLocation(url: "postgresql://me@127.0.0.1/app").port == 5432)
        #expect(try PostgresLocation(url: "postgresql://me@127.0.0.1/app").schema == "public")
    }

    @Test func tlsAndPoolSizeComeFromTheURLWithLibpqsDefault() throws {
        let plain = try PostgresLocation(url: "postgres://me@db/app")
        #expect(plain.tls == .prefer && plain.rootCertificates == nil && plain.poolSize == 8)
        let strict = try PostgresLocation(
            url: "postgres://me:s3cret@db/app?sslmode=verify-full&sslrootcert=/etc/ca.pem&pool_size=20"
        )
        #expect(strict.tls == .verifyFull && strict.rootCertificates == "/etc/ca.pem" && strict.poolSize == 20)
        #expect(strict.description == "postgres://me@db:5432/app?sslmode=verify-full&sslrootcert=/etc/ca.pem&pool_size=20")
    }

    @Test(arguments: [
        "http://ferry:s3cret@host/db", "postgres://host/db", "postgres://ferry:s3cret@host",
        "postgres://ferry:s3cret@host/db?schema=Robert';DROP", "postgres://ferry:s3cret@host/db?sslmode=always",
        "postgres://ferry:s3cret@host/db?pool_size=0", "postgres://ferry:s3cret@host/db?pool_size=many",
        "postgres://ferry:s3cret@host/db?ssl=true",
    ])
    func anUnusableURLIsRefusedWithoutRepeatingIt(_ url: String) {
        let error = #expect(throws: PostgresLocationError.self) { try PostgresLocation(url: url) }
        #expect(error?.message.contains("s3cret") == false)
        #expect(error?.message.hasPrefix("The database URL ") == true)
    }

    @Test func placeholdersAreNumberedInOrderAndNumberedOnesKeepTheirNumber() {
        #expect(PostgresStatements.translate("SELECT ? , ?") == "SELECT $1 , $2")
        #expect(
            PostgresStatements.translate("VALUES (?1, 1, ?2) WHERE a + ?3 <= ?2")
                == "VALUES ($1, 1, $2) WHERE a + $3 <= $2"
        )
        #expect(
            PostgresStatements.translate("SELECT '?' , ? FROM t WHERE x = 'it''s?'")
                == "SELECT '?' , $1 FROM t WHERE x = 'it''s?'"
        )
    }
}
