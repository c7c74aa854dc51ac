import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// One look at the clocks, taken at a single moment: the wall clock for people
/// and for crossing reboots, the boot clock for measuring, and which boot the
/// boot clock belongs to.
///
/// The boot clock (Linux `CLOCK_BOOTTIME`) never jumps when someone sets the
/// date or NTP steps the wall clock, and it keeps counting while the machine
/// is suspended, so a difference of two readings from the same boot is the
/// true time that passed. It restarts near zero at every boot, which is why
/// each reading carries the boot id.
public struct ClockReading: Equatable, Sendable {
    /// Wall-clock time (CLOCK_REALTIME).
    public var wall: Timestamp
    /// Seconds on the boot clock (CLOCK_BOOTTIME) of boot `bootID`.
    public var boot: Double
    /// The kernel's id for the current boot (/proc/sys/kernel/random/boot_id).
    public var bootID: String

    public init(wall: Timestamp, boot: Double, bootID: String) {
        self.wall = wall
        self.boot = boot
        self.bootID = bootID
    }

    /// The same clocks `seconds` later (negative: earlier), as if read then.
    /// Used to place a moment that was computed rather than observed, such as
    /// the instant a countdown reached zero while nothing watched.
    public func shifted(by seconds: Double) -> ClockReading {
        ClockReading(wall: wall.adding(seconds: seconds), boot: boot + seconds, bootID: bootID)
    }
}

/// Where timers get "now". Injected everywhere so that tests drive time
/// (including wall-clock jumps and reboots) without sleeping.
public protocol TimerClock: Sendable {
    /// Reads all clocks at once.
    func reading() -> ClockReading
}

/// The machine's real clocks.
public struct SystemTimerClock: TimerClock {
    /// The boot id is read once: it cannot change while this process lives.
    public let bootID: String

    public init() {
        bootID = SystemTimerClock.readBootID()
    }

    public func reading() -> ClockReading {
        ClockReading(wall: Timestamp(secondsSince1970: SystemTimerClock.seconds(on: CLOCK_REALTIME)),
                     boot: SystemTimerClock.seconds(on: CLOCK_BOOTTIME),
                     bootID: bootID)
    }

    /// Seconds on one of the kernel's clocks.
    public static func seconds(on clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The kernel's boot id. Where /proc does not offer it (a restricted
    /// container), the boot's start on the wall clock stands in: it identifies
    /// the boot as long as nobody moves the wall clock, and when someone does,
    /// spans merely fall back to wall-clock measurement and say "estimated".
    static func readBootID() -> String {
        if let file = fopen("/proc/sys/kernel/random/boot_id", "r") {
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 64)
            if fgets(&buffer, Int32(buffer.count), file) != nil {
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let trimmed = text.filter { !$0.isWhitespace }
                if !trimmed.isEmpty { return trimmed }
            }
        }
        let bootStart = seconds(on: CLOCK_REALTIME) - seconds(on: CLOCK_BOOTTIME)
        return "boot-at-\(Int64(bootStart.rounded()))"
    }
}
