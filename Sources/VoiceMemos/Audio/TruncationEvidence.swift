/// Reads libsndfile's parse log for a truncated file.
///
/// libsndfile quietly shortens a WAV or AIFF whose data chunk claims more
/// bytes than the file holds, and only its log says so, e.g.
/// `data : 64000 (should be 42652)`. Streamed files that never learned their
/// length write 0 or all ones there; those are not truncation.
enum TruncationEvidence {
    static let dataChunks: Set<String> = ["data", "SSND", "ds64"]
    static let unknownLengths: Set<UInt64> = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF]

    static func isTruncated(log: String) -> Bool {
        for line in log.split(separator: "\n") {
            if line.contains("not equal to frame count") { return true }
            guard let colon = line.firstIndex(of: ":"),
                  dataChunks.contains(line[..<colon].trimmingCharacters()),
                  let open = line.firstRange(of: "(should be ") else { continue }
            let claimedText = line[line.index(after: colon)..<open.lowerBound].trimmingCharacters()
            let actualText = line[open.upperBound...].prefix { $0.isNumber }
            guard let claimed = UInt64(claimedText), let actual = UInt64(actualText) else { continue }
            if claimed > actual && !unknownLengths.contains(claimed) { return true }
        }
        return false
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
