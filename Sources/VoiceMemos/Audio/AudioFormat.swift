import CSndFile

/// Names for libsndfile's format codes as people read them ("FLAC",
/// "PCM 16-bit"), and the file extension the library folder uses.
/// libsndfile's own names ("Signed 16 bit PCM") are the fallback.
public enum AudioFormat {
    /// The container code of an MP4 (.m4a, .mp4) that FFmpeg reads, which
    /// libsndfile has no code for: memoapp's own, far above libsndfile's
    /// (whose containers end at 0x28_0000), within `SF_FORMAT_TYPEMASK`.
    public static let mp4: Int32 = 0x0F00_0000
    /// The encoding code of AAC, likewise memoapp's own (libsndfile's
    /// encodings end at 0x00A0), within `SF_FORMAT_SUBMASK`. ALAC has
    /// libsndfile's codes (`SF_FORMAT_ALAC_16`…), which it reads in CAF.
    public static let aac: Int32 = 0x0F00

    /// True for audio only FFmpeg reads (anything in MP4, AAC in anything):
    /// libsndfile cannot write it, so a trim writes FLAC instead.
    public static func isFFmpegOnly(_ format: Int32) -> Bool {
        format & Int32(SF_FORMAT_TYPEMASK) == mp4 || format & Int32(SF_FORMAT_SUBMASK) == aac
    }

    /// The container's name, e.g. "WAV", "FLAC", "Ogg", "MP3".
    public static func containerName(_ format: Int32) -> String {
        let major = format & Int32(SF_FORMAT_TYPEMASK)
        let subtype = format & Int32(SF_FORMAT_SUBMASK)
        switch Int(major) {
        case SF_FORMAT_WAV: return "WAV"
        case SF_FORMAT_WAVEX: return "WAVEX"
        case SF_FORMAT_AIFF: return "AIFF"
        case SF_FORMAT_FLAC: return "FLAC"
        case SF_FORMAT_OGG: return "Ogg"
        case SF_FORMAT_CAF: return "CAF"
        case SF_FORMAT_W64: return "W64"
        case SF_FORMAT_RF64: return "RF64"
        case SF_FORMAT_AU: return "AU"
        case SF_FORMAT_MPEG: return Int(subtype) == SF_FORMAT_MPEG_LAYER_III ? "MP3" : "MPEG"
        case Int(mp4): return "MP4"
        default: return libsndfileName(major, command: SFC_GET_FORMAT_INFO) ?? "audio"
        }
    }

    /// The encoding's name, e.g. "PCM 16-bit", "Vorbis", "Opus".
    public static func encodingName(_ format: Int32) -> String {
        let subtype = format & Int32(SF_FORMAT_SUBMASK)
        switch Int(subtype) {
        case SF_FORMAT_PCM_S8: return "PCM 8-bit"
        case SF_FORMAT_PCM_U8: return "PCM 8-bit unsigned"
        case SF_FORMAT_PCM_16: return "PCM 16-bit"
        case SF_FORMAT_PCM_24: return "PCM 24-bit"
        case SF_FORMAT_PCM_32: return "PCM 32-bit"
        case SF_FORMAT_FLOAT: return "float 32-bit"
        case SF_FORMAT_DOUBLE: return "float 64-bit"
        case SF_FORMAT_ULAW: return "μ-law"
        case SF_FORMAT_ALAW: return "A-law"
        case SF_FORMAT_VORBIS: return "Vorbis"
        case SF_FORMAT_OPUS: return "Opus"
        case SF_FORMAT_MPEG_LAYER_I: return "MPEG layer I"
        case SF_FORMAT_MPEG_LAYER_II: return "MPEG layer II"
        case SF_FORMAT_MPEG_LAYER_III: return "MPEG layer III"
        case SF_FORMAT_IMA_ADPCM: return "IMA ADPCM"
        case SF_FORMAT_MS_ADPCM: return "MS ADPCM"
        case SF_FORMAT_GSM610: return "GSM 6.10"
        case SF_FORMAT_ALAC_16: return "ALAC 16-bit"
        case SF_FORMAT_ALAC_20: return "ALAC 20-bit"
        case SF_FORMAT_ALAC_24: return "ALAC 24-bit"
        case SF_FORMAT_ALAC_32: return "ALAC 32-bit"
        case Int(aac): return "AAC"
        default: return libsndfileName(subtype, command: SFC_GET_FORMAT_INFO) ?? "unknown"
        }
    }

    /// The extension a stored file gets, from what the file is (not from the
    /// name it came with, which may be wrong).
    public static func fileExtension(_ format: Int32) -> String {
        let major = format & Int32(SF_FORMAT_TYPEMASK)
        let subtype = format & Int32(SF_FORMAT_SUBMASK)
        switch Int(major) {
        case SF_FORMAT_WAV, SF_FORMAT_WAVEX: return "wav"
        case SF_FORMAT_AIFF: return "aiff"
        case SF_FORMAT_FLAC: return "flac"
        case SF_FORMAT_OGG: return Int(subtype) == SF_FORMAT_OPUS ? "opus" : "ogg"
        case SF_FORMAT_MPEG: return Int(subtype) == SF_FORMAT_MPEG_LAYER_III ? "mp3" : "mp2"
        case SF_FORMAT_CAF: return "caf"
        case SF_FORMAT_W64: return "w64"
        case SF_FORMAT_RF64: return "rf64"
        case SF_FORMAT_AU: return "au"
        // Apple's name for audio in MP4, which players and browsers know.
        case Int(mp4): return "m4a"
        default:
            let name = libsndfileName(major, command: SFC_GET_FORMAT_INFO, wantsExtension: true) ?? ""
            let clean = name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            return clean.isEmpty ? "audio" : String(clean.prefix(8))
        }
    }

    /// True for encodings whose samples are integers, so copying them through
    /// `sf_readf_int`/`sf_writef_int` is exact (float would lose the last bit:
    /// libsndfile reads 16-bit as x/32768 but writes float as x·32767).
    /// ALAC is lossless integer audio, whichever library decodes it.
    static func isIntegerPCM(_ format: Int32) -> Bool {
        switch Int(format & Int32(SF_FORMAT_SUBMASK)) {
        case SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_32,
             SF_FORMAT_ULAW, SF_FORMAT_ALAW, SF_FORMAT_IMA_ADPCM, SF_FORMAT_MS_ADPCM, SF_FORMAT_GSM610,
             SF_FORMAT_ALAC_16, SF_FORMAT_ALAC_20, SF_FORMAT_ALAC_24, SF_FORMAT_ALAC_32:
            return true
        default:
            return false
        }
    }

    /// libsndfile's name (or default extension) for a format code; nil when
    /// libsndfile does not know it (or cannot be loaded, which the opening of
    /// the file this name is for has already reported).
    private static func libsndfileName(_ format: Int32, command: Int, wantsExtension: Bool = false) -> String? {
        guard let sndfile = try? LibSndFile.loaded() else { return nil }
        var info = SF_FORMAT_INFO()
        info.format = format
        guard sndfile.command(nil, Int32(command), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0 else { return nil }
        guard let text = wantsExtension ? info.`extension` : info.name else { return nil }
        let name = String(cString: text)
        // "WAV (Microsoft)" -> "WAV"
        if let parenthesis = name.firstIndex(of: "(") {
            return String(name[..<parenthesis]).trimmingSuffixSpaces()
        }
        return name
    }
}

extension String {
    func trimmingSuffixSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
