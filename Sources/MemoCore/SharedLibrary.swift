#if canImport(Glibc)
import Glibc
#endif

/// A C library opened with `dlopen` when a command first needs it, instead of
/// being linked into memoapp.
///
/// Every linked shared library is mapped and relocated at every start, so
/// `memoapp todo add` would pay for the audio codecs and the JSON parser it
/// never calls. Libraries only some commands use are loaded through this type;
/// their declarations still come from the Debian package's header through a
/// system-library target, only the linking moves here.
public struct SharedLibrary {
    /// The soname `dlopen` looked up, e.g. `libsndfile.so.1`.
    public let soname: String
    /// The Debian package that installs it, named in errors.
    public let debianPackage: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `soname` (resolving every symbol now, so a broken library fails
    /// here rather than in the middle of a command); `purpose` says in both
    /// languages what needs it, for the error.
    public init(_ soname: String, debianPackage: String, purpose: Localized) throws(MemoError) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = SharedLibrary.lastLoaderError()
            throw MemoError(
                .internalFailure,
                en: "\(purpose.en) needs \(soname), which cannot be loaded (\(reason)); "
                    + "install the Debian package \(debianPackage)",
                ko: "\(purpose.ko)에는 \(soname)이(가) 필요한데 불러올 수 없습니다 (\(reason)). "
                    + "Debian 패키지 \(debianPackage)을(를) 설치하세요")
        }
        self.soname = soname
        self.debianPackage = debianPackage
        self.handle = handle
    }

    /// The function `name` as the C function type `F`, which must be its real
    /// signature (the declaration in the library's header).
    public func function<F>(_ name: String) throws(MemoError) -> F {
        guard let address = dlsym(handle, name) else {
            let reason = SharedLibrary.lastLoaderError()
            throw MemoError(
                .internalFailure,
                en: "\(soname) has no function \(name) (\(reason)); "
                    + "install the Debian package \(debianPackage) from a current Debian release",
                ko: "\(soname)에 \(name) 함수가 없습니다 (\(reason)). "
                    + "최신 Debian 릴리스의 \(debianPackage) 패키지를 설치하세요")
        }
        return unsafeBitCast(address, to: F.self)
    }

    /// Opens `soname` and hands it to `resolve`, which takes the functions it
    /// needs; a library lacking one is closed again. For a type's one-time
    /// loader (`static let shared = …`), hence a `Result`.
    public static func load<Functions>(
        _ soname: String, debianPackage: String, purpose: Localized,
        resolving resolve: (SharedLibrary) throws(MemoError) -> Functions
    ) -> Result<Functions, MemoError> {
        Result { () throws(MemoError) in
            let library = try SharedLibrary(soname, debianPackage: debianPackage, purpose: purpose)
            do throws(MemoError) {
                return try resolve(library)
            } catch {
                dlclose(library.handle)
                throw error
            }
        }
    }

    /// `dlerror()`'s text for the last failed `dlopen` or `dlsym`.
    private static func lastLoaderError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown reason"
    }
}
