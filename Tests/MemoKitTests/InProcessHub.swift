import Foundation
import MemoCore
@testable import MemoKit
import VoiceMemos
import XCTest

/// A hub in the same process, reached through the wire form of the sync
/// documents (each serialized and parsed again), as `memoapp serve` would.
struct InProcessHub: SyncTransport {
    let workspace: Workspace

    func pull(after cursor: Int64, epoch: String?, limit: Int, counting: Bool) throws -> JSONReader {
        let page = try workspace.database().writeTransaction { () -> JSON in
            let hub = try SyncHub(workspace)
            try hub.check(epoch: epoch)
            try hub.publishLocalChanges()
            return try hub.pull(after: cursor, limit: limit, counting: counting)
        }
        return try JSONReader(parsing: page.serializedBytes)
    }

    func push(_ document: JSON) throws -> JSONReader {
        let reader = try JSONReader(parsing: document.serializedBytes)
        let epoch = try reader.member("epoch").flatMap { $0.isNull ? nil : try $0.string() }
        let answer = try workspace.database().writeTransaction { () -> JSON in
            let hub = try SyncHub(workspace)
            try hub.check(epoch: epoch)
            return try hub.push(reader, device: "token " + reader.string("device")).json
        }
        return try JSONReader(parsing: answer.serializedBytes)
    }

    func blobReceived(_ checksum: String) throws -> Int64? {
        let store = try workspace.voiceStore()
        return try store.audioPath(checksum: checksum) == nil ? store.receivedBytes(checksum: checksum) : nil
    }

    /// The bytes from `offset`, as far as `cutAfter` when given (a cut
    /// connection: what arrived stays).
    func uploadBlob(_ checksum: String, path: String, offset: Int64, size: Int64) throws {
        let store = try workspace.voiceStore()
        let writer = try store.blobWriter(checksum: checksum, offset: offset)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let end = cutAfter.map { min(Int(offset) + $0, bytes.count) } ?? bytes.count
        try bytes[Int(offset)..<end].withUnsafeBytes { try writer.write($0) }
        writer.close()
        guard end == bytes.count else {
            throw MemoError(.unavailable, en: "the connection was cut", ko: "연결이 끊겼습니다")
        }
        try store.finishBlob(checksum: checksum)
    }

    func downloadBlob(_ checksum: String, offset: Int64, write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        let path = try XCTUnwrap(try workspace.voiceStore().audioPath(checksum: checksum))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        guard offset < bytes.count else {
            throw MemoError(.invalidState, hint: .blobOffset, en: "416", ko: "416")
        }
        try bytes[Int(offset)...].withUnsafeBytes { try write($0) }
    }

    /// Cuts each upload after this many bytes.
    var cutAfter: Int?
}
