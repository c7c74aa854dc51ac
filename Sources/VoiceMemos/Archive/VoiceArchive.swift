import MemoCore
import SQLite

/// Voice memos in memoapp's export document: every stored field and the
/// waveform peaks, but not the audio, which stays in files. The export names
/// each memo's file and checksum so that an import can find the audio and
/// prove it is the same.
///
///     {"id": 1, "uid": "…", "title": "stand-up", "original_name": "talk.flac",
///      "file_name": "1-<checksum>.flac", "container": "FLAC", "encoding": "PCM 16-bit",
///      "format_code": 1507330, "sample_rate": 44100, "channels": 1, "frames": 441000,
///      "duration": 10, "size": 512345, "peak_level": 0.5, "checksum": "<XXH3-128 hex>",
///      "imported_at": "…", "updated_at": null, "tags": ["work"],
///      "peaks": {"samples_per_pixel": 32, "encoding": "int16le-min-max", "data": "<base64>"}}
///
/// The peaks are the stored blob in Base64: (minimum, maximum) pairs of
/// little-endian signed 16-bit samples, one pair per `samples_per_pixel`
/// frames of the mono mix. At most 2^20 pairs are kept (`PeakAccumulator`),
/// so a memo's peaks take at most 4 MiB, 5.6 MB as Base64; an hour of 44.1 kHz
/// audio keeps 620,157 pairs, 3.3 MB of Base64 (a JSON array of the numbers
/// would take about 8 MB).
public enum VoiceArchive {
    /// The module's tables whose rows carry a uid.
    public static let tablesWithUIDs = ["voice_memos"]

    /// The name of the peaks' binary layout in the document.
    public static let peaksEncoding = "int16le-min-max"

    /// Every voice memo, by id. Call inside a read transaction.
    public static func exportMemos(from connection: Connection) throws -> [JSON] {
        let tags = try tagsByMemo(connection)
        return try connection.query("""
            SELECT m.id, m.uid, m.title, m.original_name, m.file_name, m.container, m.encoding, m.format_code,
                m.sample_rate, m.channels, m.frames, m.duration, m.size, m.peak_level, m.checksum, m.imported_at,
                m.updated_at, p.samples_per_pixel, p.data
            FROM voice_memos m LEFT JOIN voice_memo_peaks p ON p.memo_id = m.id ORDER BY m.id
            """) { row in
            let id = row.int64(0)
            let peaks: JSON = row.isNull(17) ? .null : .object([
                ("samples_per_pixel", .int(row.int64(17))),
                ("encoding", .string(peaksEncoding)),
                ("data", .string(Base64.encode(row.blob(18)))),
            ])
            return .object([
                ("id", .int(id)),
                ("uid", .string(row.string(1))),
                ("title", .string(row.string(2))),
                ("original_name", .string(row.string(3))),
                ("file_name", .string(row.string(4))),
                ("container", .string(row.string(5))),
                ("encoding", .string(row.string(6))),
                ("format_code", .int(row.int64(7))),
                ("sample_rate", .int(row.int64(8))),
                ("channels", .int(row.int64(9))),
                ("frames", .int(row.int64(10))),
                ("duration", .double(row.double(11))),
                ("size", .int(row.int64(12))),
                ("peak_level", .double(row.double(13))),
                ("checksum", .string(row.string(14))),
                ("imported_at", .exactTime(Timestamp(secondsSince1970: row.double(15)))),
                ("updated_at", .exactTime(row.optionalDouble(16).map(Timestamp.init(secondsSince1970:)))),
                ("tags", .strings(tags[id] ?? [])),
                ("peaks", peaks),
            ])
        }
    }

    // MARK: - Private

    /// Each memo's tags, sorted as the store lists them.
    private static func tagsByMemo(_ connection: Connection) throws -> [Int64: [String]] {
        var tags: [Int64: [String]] = [:]
        let rows = try connection.query("SELECT memo_id, tag FROM voice_memo_tags ORDER BY memo_id, tag") {
            ($0.int64(0), $0.string(1))
        }
        for (id, tag) in rows { tags[id, default: []].append(tag) }
        return tags
    }
}
