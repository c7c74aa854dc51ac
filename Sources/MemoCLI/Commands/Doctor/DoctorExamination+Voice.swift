import MemoCore

extension DoctorExamination {
    /// The voice library's check, through the voice module's own verification.
    /// The voice module is not on main yet: this check is added with it.
    func checkVoiceLibrary() {}
}
