import Foundation
import MemoCore
@testable import VoiceMemos

extension VoiceStore {
    /// `writeAudio` as an output file uses it: into a temporary beside
    /// `destination` (format from its ending unless given), renamed into place
    /// when it succeeds, removed when it fails, so a test sees the file whole
    /// or not at all.
    func export(id: Int64, to destination: String, format: ExportFormat? = nil) throws -> ExportResult {
        let name = (destination as NSString).lastPathComponent
        let ending = (name as NSString).pathExtension.lowercased()
        let chosen = format ?? ExportFormat.allCases.first { $0.fileExtensions.contains(ending) } ?? .wav
        let folder = (destination as NSString).deletingLastPathComponent
        let output = try TemporaryFile(in: folder.isEmpty ? "." : folder, purpose: "export")
        do {
            let result = try writeAudio(id: id, as: chosen, into: output.descriptor, shownPath: destination)
            try output.sync()
            try FileSystem.rename(output.path, to: destination)
            output.closeDescriptor()
            return result
        } catch {
            output.discard()
            throw error
        }
    }
}
