import SQLite

extension Configuration {
    /// How memoapp opens its own database (its mark, "MEMO" in ASCII, in the
    /// header's application_id), written out here so that a test that makes
    /// a memoapp.db by hand does not take the value from the code under test.
    public static let memoappDatabase = Configuration(applicationID: 0x4D45_4D4F, productName: "memoapp")
}
