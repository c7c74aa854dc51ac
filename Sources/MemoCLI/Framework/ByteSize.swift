/// Sizes for people, in one unit system throughout: powers of 1024 named as
/// IEC names them (KiB, MiB, GiB), as `doctor` reports the database and as
/// `serve --max-upload 500M` reads a size.
public enum ByteSize {
    /// `812 B`, `31.3 KiB`, `318.0 MiB`, `2.1 GiB`; a negative count (a
    /// damaged row) shows as 0 B.
    public static func text(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return "\(max(0, bytes)) B" }
        var value = Double(bytes) / 1024
        for unit in units {
            if value < 1024 || unit == units.last {
                let tenths = Int64((value * 10).rounded())
                return "\(tenths / 10).\(tenths % 10) \(unit)"
            }
            value /= 1024
        }
        return "\(bytes) B"
    }

    private static let units = ["KiB", "MiB", "GiB", "TiB"]
}
